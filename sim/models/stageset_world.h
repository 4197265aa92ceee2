#ifndef MAGOS_SIM_STAGESET_WORLD_H
#define MAGOS_SIM_STAGESET_WORLD_H

/*
 * The world of the StageSet controller: everything a reconcile pass of the
 * port (engine/stageset_controller.h) asks outside the controller, as
 * deterministic functions of simulated time chosen by the scenario
 * (sim/load/scn_ssworld.h, scenarios/README.md "StageSet world").  The
 * wire (sim/wire) implements struct ssc_env by calling these functions; the
 * store answers what it holds, this model the rest.  Nothing here touches
 * the store or schedules events: a pass computed at its start asks for the
 * future it will live through, and gets the same answers it would get
 * asking then.
 *
 * Times: every t_ms is ms since scenario start (env at_ms minus the
 * scenario's start).  Durations returned are ms >= 0.
 *
 * Members.  A StageSet is named by a struct sw_member the wire fills from
 * the object a pass read (labels, its Namespace's labels, the parsed spec).
 * The model keeps per StageSet: its label history (every change of labels
 * or Namespace labels seen, with its time), the sources it references, and
 * per stage (by name) the revision last applied and how it becomes ready.
 *
 * Sources.  Every stage sourceRef and the migrationsSourceRef name a source:
 * (ExternalArtifact, ns, name) for an empty kind or ExternalArtifact;
 * (GitRepository | OCIRepository | Bucket, ns, name) for a Flux source; for a
 * producer (any other kind) an ExternalArtifact named after the producer
 * whose spec.sourceRef points back at it.  The wire reads a source from the
 * store first; one the store does not hold is modelled here
 * (sw_source_get(), sw_source_list()): Ready, with an artifact whose
 * revision changes at each publish that reaches a StageSet referencing it.
 *
 * Publish.  A `publish` event (scenario.fevents) reaches a StageSet when its
 * selectors match the StageSet's labels (and its Namespace's) as they were
 * at the event's time; a StageSet first seen later is reached from its first
 * sighting on, with its labels then.  A reached source gets a new revision
 * at max(event time, first sighting) that carries the published version:
 * the fromArtifact version file holds it, the fromObject label or field
 * reads it.  A StageSet whose spec.version is an inline value is published
 * to as a GitOps delivery does it: the wire edits spec.version.value to
 * sw_offered_version() (a generation bump attributed to "source") and the
 * stage sources get their new revision as above.
 *
 * Stages.  sw_apply_stage() stands for fetch → decrypt → postBuild →
 * build → image gate → conflict policy → apply → record inventory: a drawn
 * duration and failure.  Each stage renders one workload object,
 * Deployment "<stageset>-<stage>" in the StageSet's namespace.  The first
 * apply of a revision (a revision other than the one the stage last
 * applied) starts a rollout: its objects become kstatus-Current after a
 * drawn delay, or Failed after that delay (probability), or never
 * (probability); the ready-check expressions (CEL, not evaluated) hold a
 * drawn delay after that, or fail, or never hold, the same way.  A retry of
 * the same revision finds the rollout where it stands; a re-verify of a
 * ready revision is ready at once.  sw_wait_stage() and sw_ready_exprs()
 * poll every 2 s (the first poll at once) as kstatus and the CEL poll do.
 *
 * Faults of the running workload: windows during which a stage's objects
 * are Failed (or InProgress: the effect) — scripted `regress` events (every
 * stage of the StageSets they reach) and regressions drawn when a revision
 * becomes ready (spec.models.stagesets.regression; ends early when another
 * revision is applied).  The controller notices a fault at its next verify.
 *
 * Random numbers: each draw has its own PCG32 stream rng_stream(seed, trial,
 * id) (sim/core/rng.h) with id
 *   "stageset/<ns>/<name>/<stage>/rev#<k>/<what>"  k = 1, 2, ... the
 *       revisions the stage applied; what = ready-delay, ready-failed,
 *       ready-never, exprs-delay, exprs-failed, exprs-never, regression,
 *       regression-after, regression-duration
 *   "stageset/<ns>/<name>/<stage>/rev#<k>/apply#<j>/<what>"  j = 1, 2, ...
 *       the applies of that revision; what = duration, failure
 *   "stageset/<ns>/<name>/<stage>/<phase>/<action>#<n>/<what>"  n = 1, 2,
 *       ... that action's attempts; stage "-" for onRollback actions
 *   "stageset/<ns>/<name>/<stage>/restore#<n>/duration"
 *   "source/<kind>/<ns>/<name>/fetch#<n>/duration"
 * so a change to one StageSet leaves every other StageSet's draws where
 * they were (common random numbers).  A constant distribution or a
 * probability of 0 or 1 draws nothing.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/labels.h"
#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "sim/load/scenario.h"
#include "sim/load/scn_ssworld.h"

#define SW_POLL_MS INT64_C(2000)  /* kstatus and CEL poll interval */
#define SW_NEVER INT64_MAX         /* a time that never comes */

/* What the world is built from; everything is borrowed and must outlive the world. */
struct sw_setup {
	const struct scn_sw_config *cfg;     /* the StageSet world (defaults filled in) */
	const struct scn_fevent *fevents;    /* publish and regress events, in file order */
	size_t nfevents;
	const struct scn_series *series;     /* spec.metrics */
	size_t nseries;
	uint64_t seed;                       /* scenario seed */
	uint64_t trial;                      /* Monte Carlo trial index */
	int64_t start_unix_ms;               /* wall time of simulated 0 (object timestamps) */
};

/* A StageSet as a pass read it; every pointer borrowed for the call. */
struct sw_member {
	const char *ns, *name;
	const struct obj_strmap *labels;      /* the StageSet's labels */
	const struct obj_strmap *ns_labels;   /* its Namespace's labels; NULL: none */
	const struct obj_strmap *annotations; /* NULL: none */
	const struct sst_spec *spec;          /* parsed spec */
};

/* A fault window of a StageSet's running workload. */
struct sw_fault {
	int64_t start_ms, end_ms;  /* [start, end), ms since scenario start */
	enum scn_sw_effect effect;
	const char *stage;         /* NULL: every stage (scripted); else the stage (owned) */
	bool scripted;             /* a regress event, else drawn */
	size_t event;              /* scripted: index into sw_setup.fevents */
	const char *version;       /* drawn: the version the stage ran (owned), else NULL */
};

struct sw_world;

/*
 * sw_new() - the world of @s.  Validates nothing (the loader did).
 * Returns: new; free with sw_free().  Cannot fail (aborts on OOM).
 */
struct sw_world *sw_new(const struct sw_setup *s);

/* sw_free() - frees @w and every object and string it handed out.  Accepts NULL. */
void sw_free(struct sw_world *w);

/* ---- members and publish ------------------------------------------------ */

/*
 * sw_member_seen() - tells the world about StageSet @m at @t_ms: the first
 * call is its first sighting; later calls record a change of its labels or
 * its Namespace's labels (as of @t_ms) and of the sources it references.
 * Every other sw_ call taking a member calls it too, so the wire needs it
 * only where nothing else is asked (a StageSet's creation and label edits).
 * Cost: O(labels + stages) when nothing changed.
 */
void sw_member_seen(struct sw_world *w, const struct sw_member *m, int64_t t_ms);

/*
 * sw_publish_reaches() - whether publish event @event (index into
 * sw_setup.fevents, a PUBLISH) reaches the StageSet @ns/@name, and from
 * when: *@from_ms = max(event time, first sighting).
 * Returns: false for a StageSet never seen, an event that is not a publish,
 *          or selectors that do not match its labels at that time.
 */
bool sw_publish_reaches(const struct sw_world *w, size_t event, const char *ns, const char *name,
			int64_t *from_ms);

/*
 * sw_offered_version() - the version of the last publish that reached
 * @ns/@name at or before @t_ms (the latest reach time wins; ties the later
 * event), borrowed from the scenario; NULL when none did.  What an inline
 * spec.version.value is edited to.
 */
const char *sw_offered_version(const struct sw_world *w, const char *ns, const char *name,
			       int64_t t_ms);

/* ---- sources ------------------------------------------------------------- */

/*
 * sw_source_get() - the modelled source @kind @ns/@name at @t_ms, for a get
 * the store could not answer.  @kind: "ExternalArtifact", "GitRepository",
 * "OCIRepository" or "Bucket" (@api_version is not compared).
 * Returns: the object (owned by the world, valid until sw_free(): the pass
 *          borrows its artifact strings), or NULL with @err: NOT_FOUND for
 *          another kind or in a `missing` window, FORBIDDEN in a `forbidden`
 *          window (the API server's texts).  In a `notReady` window the
 *          object has Ready False (reason per kind, the last artifact kept).
 */
const struct obj *sw_source_get(struct sw_world *w, const char *api_version, const char *kind,
				const char *ns, const char *name, int64_t t_ms,
				struct ssc_err *err);

/*
 * sw_source_list() - the modelled ExternalArtifacts of @ns at @t_ms: one per
 * producer ref (any other kind) of a StageSet seen in @ns, named after the
 * producer, spec.sourceRef pointing back at it.  The wire adds them to the
 * store's list, leaving out one whose name or back-pointer a stored
 * ExternalArtifact already has.
 * @out: receives a borrowed array (valid until the next sw_source_list()).
 * Returns: the count; 0 with @err FORBIDDEN when one of them is in a
 *          `forbidden` window.
 */
size_t sw_source_list(struct sw_world *w, const char *ns, int64_t t_ms,
		      const struct obj *const **out, struct ssc_err *err);

/*
 * sw_source_next_change() - the first time after @t_ms at which the
 * modelled source @kind @ns/@name changes what sw_source_get() shows (a new
 * revision, a `missing`, `notReady` or `forbidden` window opening or
 * closing), as the StageSets known so far reach it; SW_NEVER when none.
 * What the wire's watch of sources (W5, W6) turns into wake-ups.
 */
int64_t sw_source_next_change(struct sw_world *w, const char *kind, const char *ns, const char *name,
			      int64_t t_ms);

/*
 * sw_revision_version() - the version the revision @revision of the source
 * behind @ra carries: the published version for a revision this model made,
 * else the source's initialVersion.  Borrowed (world or scenario).
 */
const char *sw_revision_version(struct sw_world *w, const struct ssc_resolved *ra);

/*
 * sw_artifact_file() - env artifact_file: file @path of @ra's artifact.
 * A file of the source's `files` is returned as written; any other path is
 * the version file: the carried version and a newline, "" in a
 * `versionEmpty` window, NOT_FOUND in a `versionMissing` window.
 * Returns: 0 with *@content new (caller frees), or -1 with @err (SSC_ERR in
 *          a `fetchErrors` window).  *@duration_ms: the fetch.
 */
int sw_artifact_file(struct sw_world *w, const struct ssc_resolved *ra, const char *path,
		     int64_t t_ms, char **content, int64_t *duration_ms, struct ssc_err *err);

/*
 * sw_ladder_files() - env ladder_files: the files of @ra's artifact under
 * @path ("" or "." all; else the path itself and what lies below it),
 * sorted by path, from the source's `files`.
 * Returns: the count with *@paths, *@contents new arrays of new strings
 *          (caller frees each and the arrays), or 0 with @err (SSC_ERR in a
 *          `fetchErrors` window).
 */
size_t sw_ladder_files(struct sw_world *w, const struct ssc_resolved *ra, const char *path,
		       int64_t t_ms,
		       char ***paths, char ***contents, int64_t *duration_ms, struct ssc_err *err);

/*
 * sw_object_version() - env object_version: build stage @stage of @m at @ra
 * and read the version object's label app.kubernetes.io/version (or
 * @field_path).  The object is always rendered; its version is the carried
 * one, "" in a `versionEmpty` window; in a `versionMissing` window the label
 * (field) is absent: @err says so in upstream's words.
 * Returns: 0 with *@version new, or -1 with @err and *@transient (a
 *          `fetchErrors` window: "fetch version artifact for stage
 *          \"<s>\": ...").
 */
int sw_object_version(struct sw_world *w, const struct sw_member *m, size_t stage,
		      const struct ssc_resolved *ra, const char *kind, const char *name,
		      const char *field_path, int64_t t_ms, char **version, bool *transient,
		      int64_t *duration_ms, struct ssc_err *err);

/* ---- stages -------------------------------------------------------------- */

/*
 * sw_apply_stage() - env apply_stage of stage @stage (index into the spec's
 * stages) at @ra, starting at @t_ms: a drawn duration; a failure (drawn per
 * apply, in its `during` windows) names its op, class and message (an
 * image-verification failure is skipped when the StageSet carries a
 * non-empty stages.metio.wtf/skip-image-verification, which sets
 * image_skipped).  Unless the failure comes before the objects are written
 * (every op but "record inventory"), a revision other than the one the
 * stage last applied starts a rollout at @t_ms + duration: nchanged 1 and
 * the object in changed_names; the same revision changes nothing.
 * nobjects is 1.  substitution_digest is left empty (the wire's).
 */
void sw_apply_stage(struct sw_world *w, const struct sw_member *m, size_t stage,
		    const struct ssc_resolved *ra, int64_t t_ms, struct ssc_apply_outcome *out);

/*
 * sw_stage_steady() - whether sw_apply_stage() of stage @stage of @m at
 * @t_ms, of the revision the stage applied last, would be a steady
 * re-apply: the apply draws nothing then (a constant duration, no failure
 * possible at @t_ms) and the objects are Current, without a fault, when it
 * ends (the verify's first poll finds them ready).  Reads only, unless
 * @commit: then it also counts the apply as sw_apply_stage() does, so a
 * caller that checked every stage first can stand in for the applies of a
 * pass whose inputs are those of the pass before.
 * *@duration_ms: the apply's duration when true.
 */
bool sw_stage_steady(struct sw_world *w, const struct sw_member *m, size_t stage, int64_t t_ms, bool commit,
		     int64_t *duration_ms);

/*
 * sw_wait_stage() - env wait_stage: the kstatus wait of stage @stage's
 * objects from @t_ms, polling every SW_POLL_MS (the first at once), until
 * Current (READY), Failed (FAILED: "failed early due to stalled resources:
 * [Deployment/<ns>/<name> status: 'Failed']", stalled) or @timeout_ms
 * (TIMEOUT: "timeout waiting for: [... status: 'InProgress']", stalled when
 * Failed at the deadline).  @with_applied does not change the answer: the
 * readyChecks.checks objects are taken to follow the stage's workload.  A
 * stage never applied is ready.  Never DELETED (the wire's).
 */
void sw_wait_stage(struct sw_world *w, const struct sw_member *m, size_t stage, bool with_applied,
		   int64_t timeout_ms, int64_t t_ms, struct ssc_wait_outcome *out);

/*
 * sw_ready_exprs() - env ready_exprs: the CEL poll of stage @stage, as
 * sw_wait_stage() but over the expressions' own times: FAILED "readyCheck
 * failed for <Kind> <ns>/<name>" (Kind of the stage's first expression),
 * TIMEOUT "context deadline exceeded" with *@in_flight true.
 */
void sw_ready_exprs(struct sw_world *w, const struct sw_member *m, size_t stage, int64_t timeout_ms,
		    int64_t t_ms, struct ssc_wait_outcome *out, bool *in_flight);

/*
 * sw_restore_stage() - env restore_stage of stage @stage to @ref: the
 * stage's restore outcome after a drawn duration.  0 restored (the stage
 * runs @ref->revision, ready at once); 1 terminal PreviousRevisionUnavailable
 * or ImageUnverified with upstream's message; 2 the re-apply failed (@err);
 * -1 transient (@err).
 */
int sw_restore_stage(struct sw_world *w, const struct sw_member *m, size_t stage,
		     const struct sst_artifact_ref *ref, int64_t t_ms, int64_t *duration_ms,
		     char *reason, size_t reasonlen, char *msg, size_t msglen, struct ssc_err *err);

/*
 * sw_run_action() - env run_action: one attempt of action @a of stage
 * @stage (SIZE_MAX: none, onRollback) in @phase ("pre", "post",
 * "onFailure", "onRollback", "migration"): the first `actions` entry of the
 * first rule that has a matching one, else of the top level, decides its
 * duration and failure; default SCN_SW_DEFAULT_ACTION_MS, success.
 * @attempt is not used (every attempt counts in the stream id).
 */
void sw_run_action(struct sw_world *w, const struct sw_member *m, size_t stage, const char *phase,
		   const struct sst_action *a, int attempt, int64_t t_ms, int64_t *duration_ms,
		   struct ssc_err *err);

/* ---- gates --------------------------------------------------------------- */

/*
 * sw_query() - env query: what HTTPQuerier.Query returns for @src at @t_ms
 * from spec.metrics (sw_metric_prometheus() / sw_metric_webhook()).  The
 * address and host checks of the querier are the wire's.
 * Returns: 0 and *@value, or -1 with @err (SSC_ERR, upstream's text).
 */
int sw_query(const struct sw_world *w, const struct sst_metric_source *src, int64_t t_ms,
	     double *value, int64_t *duration_ms, struct ssc_err *err);

/*
 * sw_metric_prometheus() - an instant query of @query at @address, as the
 * Prometheus engine and the controllers' querier answer it: the series of
 * @series (@n entries) with this query and address (else with this query
 * and no address) form an instant vector of the samples each has at @t_ms
 * (5-minute lookback); exactly one sample is the value, otherwise
 * "metric source unavailable: query returned <n> samples, want exactly 1
 * (the query must reduce to a single scalar)"; NaN/Inf are refused as
 * upstream refuses them; in an entry's `unavailable` window "source
 * returned HTTP 503".  @address may be NULL.
 * Returns: 0 and *@value, or -1 with @err (size @errlen) filled.
 */
int sw_metric_prometheus(const struct scn_series *series, size_t n, const char *query,
			 const char *address,
			 int64_t t_ms, double *value, char *err, size_t errlen);

/*
 * sw_metric_webhook() - what the querier reads from a webhook source at
 * @url with @json_path: the spec.metrics entries with this url (and this
 * jsonPath, or none) are the values the path selects at @t_ms; exactly one
 * is the value, none "jsonPath \"<p>\" matched nothing: <field> is not
 * found", several "jsonPath \"<p>\" resolved to <n> values, want exactly 1
 * (it must select a single scalar)", NaN/Inf "value is NaN" (all prefixed
 * "metric source unavailable: ").  In an entry's `unavailable` window:
 * "source returned HTTP 503".
 * Returns: 0 and *@value, or -1 with @err.
 */
int sw_metric_webhook(const struct scn_series *series, size_t n, const char *url,
		      const char *json_path, int64_t t_ms, double *value, char *err, size_t errlen);

/* sw_pod_restarts() - env pod_restarts over spec.models.pods ("list pods: ..." on a list error). */
int sw_pod_restarts(const struct sw_world *w, const char *ns, const struct lbl_selector *sel,
		    int64_t t_ms, int32_t *total, struct ssc_err *err);

/*
 * sw_warning_events() - env warning_events over spec.models.pods ("list
 * pods: ..." / "list events: ..." on a list error).
 */
int sw_warning_events(const struct sw_world *w, const char *ns, const struct lbl_selector *sel,
		      const char *const *reasons, size_t nreasons, int64_t t_ms, int32_t *total,
		      struct ssc_err *err);

/*
 * sw_anchor_uid() - env anchor_uid: the uid of the witness at @t_ms
 * (spec.models.stagesets.anchors; an unlisted witness exists throughout),
 * into @uid (@uidlen >= 37).  Returns 0, or -1 with @err NOT_FOUND (gone)
 * or FORBIDDEN (unreadable).
 */
int sw_anchor_uid(const struct sw_world *w, const char *api_version, const char *kind,
		  const char *ns,
		  const char *name, int64_t t_ms, char *uid, size_t uidlen, struct ssc_err *err);

/* ---- observation ----------------------------------------------------------- */

/*
 * sw_member_faults() - the fault windows of @ns/@name known so far (scripted
 * ones from the regress events that reach it, drawn ones of the revisions
 * applied so far), by start time.
 * @out: receives a borrowed array, valid until the next call for this
 *       StageSet or sw_free().
 * Returns: the count (0 for a StageSet never seen).
 */
size_t sw_member_faults(struct sw_world *w, const char *ns, const char *name,
			const struct sw_fault **out);

/*
 * sw_stage_ready_at() - when stage @stage of @ns/@name becomes (or became)
 * Current after its last applied revision: ms, SW_NEVER for never/Failed,
 * -1 when never applied.
 */
int64_t sw_stage_ready_at(const struct sw_world *w, const char *ns, const char *name,
			  const char *stage);

#endif
