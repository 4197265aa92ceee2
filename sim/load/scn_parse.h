#ifndef MAGOS_SIM_SCN_PARSE_H
#define MAGOS_SIM_SCN_PARSE_H

/*
 * What the files of the Scenario loader share; private to sim/load (the
 * public interface is sim/load/scenario.h).  The loader is one file per
 * section of the Scenario document:
 *
 *   scenario.c      the passes of scn_load(), the lifecycle
 *   scn_files.c     inputs: files, directories, spec.include
 *   scn_document.c  the Scenario document and its core keys (seed, horizon,
 *                   start, include, api, limits; expect, variants and sweep
 *                   kept as written)
 *   scn_parse.c     field kinds several sections use (durations, label
 *                   selectors, versions, commit SHAs) and small helpers
 *   scn_dist.c      a `duration` distribution (spec.models and its rules)
 *   scn_models.c    spec.models: jobs, policies, git, stagesets
 *   scn_ssworld.c   spec.models: the StageSet world's keys, sources
 *   scn_events.c    spec.events: the event schema, object events
 *   scn_targets.c   which object an event names; "not found"
 *   scn_mevents.c   model events (commit, failNext, ..., approve)
 *   scn_fevents.c   fleet events (publish, regress)
 *   scn_metrics.c   spec.metrics, spec.fleet and the gates that read them
 *   scn_generate.c  spec.generate
 *
 * Names here carry the prefix scnp_ (p: private to these files).  Nothing
 * here prints: problems go to the loader's struct diag (file:line:col), in
 * the order the passes meet them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/labels.h"
#include "engine/value.h"
#include "sim/base/diag.h"
#include "sim/cluster/schema.h"
#include "sim/load/dist.h"
#include "sim/load/manifest.h"
#include "sim/load/scenario.h"
#include "sim/load/yamlload.h"

/* A manifest document waiting for admission. */
struct pending_doc {
	struct val *root;    /* borrowed from a stream in loader.streams */
	const char *file;    /* borrowed from scenario.files */
};

/* A file's identity, to read a file reached twice (by another name) only once. */
struct file_id {
	dev_t dev;
	ino_t ino;
	bool known; /* stat() succeeded */
};

/* A (query, address) that spec.metrics names; strings borrowed from the Scenario document. */
struct claimed_series {
	const char *query;
	const char *address; /* NULL: any */
	size_t index;        /* in spec.metrics */
	struct val_mark mark;
	const struct val *labels; /* the entry's `labels` as written, NULL when absent */
};

/* The state of one scn_load() call, shared by its passes. */
struct loader {
	struct scenario *s;
	struct diag *d;
	struct yl_stream *streams; /* every stream read; released at the end */
	size_t nstreams, capstreams;
	struct file_id *ids;       /* identity of each entry of s->files */
	struct pending_doc *docs;
	size_t ndocs, capdocs;
	struct val *scn;           /* the Scenario document (borrowed from a stream) */
	struct val_mark scn_mark;
	bool *ev_ok;               /* per spec.events item: validated cleanly */
	size_t nev;
	struct man_rejected *rejected; /* identities of refused manifests and apply payloads */
	size_t nrejected;
	/*
	 * spec.metrics entries whose query (and address) could be read, valid or
	 * not: a gate they name is not reported as lacking a series, since the
	 * entry's own errors are already reported.
	 */
	struct claimed_series *claimed;
	size_t nclaimed;
	bool *gen_ok;              /* per spec.generate item: validated cleanly */
	size_t ngen;
	/*
	 * scn_load_static(): plain manifests are not held to what only a run
	 * needs (a synthetic series for every prometheus gate).
	 */
	bool static_only;
	/*
	 * A file had a YAML error and lost documents: a Scenario document may
	 * have been among them, so its absence is not reported again.
	 */
	bool yaml_failed;
	/* The bounds of this load (sim/base/limits.h), and what is used of them. */
	const struct limits *lim;
	struct yl_budget yb;       /* bytes, documents and alias nodes of every file read */
	uint64_t include_scanned;  /* directory entries the include patterns examined */
	bool files_over;           /* the files limit was reported: read no more */
	/*
	 * A spec.include item read nothing (reported at @include_mark of
	 * @include_file): the events, models and gates, which name the objects
	 * it would have defined, are not checked (each would say "not found").
	 */
	bool include_failed;
	const char *include_file;
	struct val_mark include_mark;
	uint64_t series_samples;   /* computed samples of the spec.metrics series read */
	/* The note on running a folder of scenarios one at a time was given. */
	bool said_one_scenario_each;
};

/* ---------------------------------------------------------------- scn_parse.c: field kinds */

/*
 * Duration fields, Go duration strings.  Durations kept as whole ms (the
 * horizon, latencies, event times, windows) use scnp_positive_duration_node
 * or scnp_ms_duration_node, which refuse a value that truncation would turn
 * into 0; distribution parameters keep fractions of a ms (scn_dist.c) and
 * use scnp_nonneg_duration_node.  A bare number (YAML's `90`) gets a note
 * about units.
 */
extern const struct sch_node scnp_positive_duration_node; /* >= 1ms */
extern const struct sch_node scnp_ms_duration_node;       /* 0 or >= 1ms */
extern const struct sch_node scnp_nonneg_duration_node;   /* >= 0, fractions of a ms kept */

/* A label selector (matchLabels, matchExpressions), checked as the engine converts it. */
extern const struct sch_node scnp_selector_node;

/* A full commit SHA (40 lower-case hex digits), and a map of refs to such SHAs. */
extern const struct sch_node scnp_sha_node;
extern const struct sch_node scnp_sha_map_node;

/*
 * scnp_check_nonneg_duration() - the check of scnp_nonneg_duration_node, for
 * a node that accepts a duration among other forms.
 * @c: validation context; problems are reported through it.
 * @v: the value (borrowed); @path: its dotted path for messages.
 * Errors: reports "Invalid value" with a note where one helps; cannot fail.
 */
void scnp_check_nonneg_duration(struct sch_ctx *c, const struct val *v, const char *path);

/*
 * scnp_check_version_text() - a version as written: @v is a string or a
 * plain number kept as its text (`1.10`), and not empty.  Same parameters
 * and errors as scnp_check_nonneg_duration().
 */
void scnp_check_version_text(struct sch_ctx *c, const struct val *v, const char *path);

/*
 * scnp_duration_ms() - a validated duration string @v in whole ms (0 when
 * @v is NULL or not a duration).  Cannot fail.
 */
int64_t scnp_duration_ms(const struct val *v);

/*
 * scnp_check_until() - the end of a window after its start, for the check
 * of a node with both: reports at @until's mark "Invalid value: \"object\":
 * until (30m0s) must be later than from (1h0m0s)", the two values as the
 * run reads them, when @until is not later than @from.  Compared in whole
 * ms as stored, so that truncation cannot empty a window.
 * @c: validation context; @path: the node's dotted path for the message.
 * @from, @until: validated durations (borrowed); @from NULL reads as 0,
 *          @until NULL (an open window) is never reported.
 * @from_key: @from's key in the message ("from", "at").
 * Errors: reports through @c; cannot fail.
 */
void scnp_check_until(struct sch_ctx *c, const struct val *from, const char *from_key, const struct val *until,
		      const char *path);

/*
 * scnp_version_text() - a version as written: the string @v, or a plain
 * number's source text.  Returns a pointer borrowed from @v, or NULL when
 * @v is NULL or of another type.
 */
const char *scnp_version_text(const struct val *v);

/*
 * scnp_read_selector() - the selector of a validated selector map @v into
 * @sel (release with lbl_selector_release()).
 * Returns: lbl_selector_string() of it, new (caller frees).
 */
char *scnp_read_selector(const struct val *v, struct lbl_selector *sel);

/* ---------------------------------------------------------------- scn_parse.c: helpers */

/* scnp_free_strv() - frees @n strings of @v and @v itself; accepts NULL with @n 0. */
void scnp_free_strv(char **v, size_t n);

/*
 * scnp_name_at() - entry @i of the NULL-terminated name list @names, or "?"
 * when @i is past its end.  Borrowed (static).
 */
const char *scnp_name_at(const char *const *names, size_t i);

/*
 * scnp_validate_each() - validates each item of the list @list (not NULL,
 * a VAL_LIST) against @node on its own, at path "@what[i]", so that one bad
 * item leaves the others usable.
 * Returns: a new array of max(n, 1) flags (caller frees): item i validated
 *          without error.  Errors: reported through @c.
 */
bool *scnp_validate_each(const struct sch_node *node, struct val *list, const char *what,
			 struct sch_ctx *c);

/* ---------------------------------------------------------------- scn_dist.c: distributions */

/*
 * A `duration` field of the models: a duration string (the constant
 * shorthand) or a map with exactly one distribution key (constant, uniform,
 * exponential, lognormal, normal, gamma, weibull, empirical, histogram),
 * whose parameters dist_validate() accepts.
 */
extern const struct sch_node scnp_dist_node;

/*
 * scnp_read_dist() - key @key of a validated map @v (NULL: none), when
 * present, into *@d (released first; release with dist_release()), setting
 * *@has.  Durations are in ms; lognormal mu/sigma are of ln(seconds), so mu
 * moves by ln(1000).  Leaves both untouched when the key is absent.
 * Cannot fail (out-of-memory exits).
 */
void scnp_read_dist(const struct val *v, const char *key, struct dist *d, bool *has);

/* ---------------------------------------------------------------- scn_document.c: the document */

/*
 * scnp_process_scenario() - validates the Scenario document @root of @file
 * (borrowed; pruned and defaulted in place) and reads its sections into
 * L->s: run parameters, models, fleet, metrics; marks which spec.generate
 * and spec.events items validated (L->gen_ok, L->ev_ok) for the later
 * passes.  Errors: reported to L->d; cannot fail.
 */
void scnp_process_scenario(struct loader *L, struct val *root, const char *file);

/* ---------------------------------------------------------------- scn_files.c: inputs */

/*
 * scnp_load_input() - reads one command-line input @path (a file or a
 * directory of *.yaml / *.yml files) into L: files into L->s->files, their
 * documents into L->docs, the Scenario document into L->scn (processed, its
 * includes read right after its file).  A file reached twice is read once.
 * Errors: unreadable paths, YAML errors, a second Scenario document, empty
 * files and directories, to L->d; cannot fail.
 */
void scnp_load_input(struct loader *L, const char *path);

/* ---------------------------------------------------------------- scn_models.c: spec.models */

/* scnp_models_init() - @m := the models' defaults (nothing allocated).  Cannot fail. */
void scnp_models_init(struct scn_models *m);

/*
 * scnp_models_process() - validates spec.models @v (of the file @c names)
 * and, when it validated without error, reads it into L->s->models.
 * Errors: through @c; cannot fail.
 */
void scnp_models_process(struct loader *L, struct val *v, struct sch_ctx *c);

/*
 * scnp_check_models() - after the events are built: each spec.models policy
 * names a ValidatingPolicy of the run; policy names and repository URLs are
 * unique.  Errors: to L->d; cannot fail.
 */
void scnp_check_models(struct loader *L);

/* A probability: a number, a ratio from 0 to 1 (scn_models.c). */
extern const struct sch_node scnp_probability_node;

/* ---------------------------------------------------------------- scn_ssworld.c: the StageSet world */

/* Schemas of the world's keys (spec.models.stagesets and its rules, spec.models.sources). */
extern const struct sch_node scnp_sw_windows_node;    /* [{from, until}] */
extern const struct sch_node scnp_sw_apply_node;      /* apply */
extern const struct sch_node scnp_sw_readiness_node;  /* readiness, readyExprs */
extern const struct sch_node scnp_sw_effect_node;     /* regression.effect, regress.effect */
extern const struct sch_node scnp_sw_actions_node;    /* actions */
extern const struct sch_node scnp_sw_restore_node;    /* restore */
extern const struct sch_node scnp_sw_store_node;      /* rollbackStore */
extern const struct sch_node scnp_sw_anchors_node;    /* anchors */
extern const struct sch_node scnp_sw_pods_node;       /* pods */
extern const struct sch_node scnp_sw_list_errors_node;/* podListErrors */
extern const struct sch_node scnp_sw_read_errors_node;/* ledgerErrors */
extern const struct sch_node scnp_sw_sources_node;    /* spec.models.sources */

/*
 * scnp_sw_check_member_keys() - after spec.models @models (at @path) was
 * validated, whatever the outcome: in spec.models.stagesets and in each of
 * its rules a member-model adoption key and its world name are not both
 * given, and `migrations` is refused (each StageSet's own spec.migrations
 * is its ladder).  Reports through
 * @c; cannot fail (a malformed tree is skipped where it is malformed).
 */
void scnp_sw_check_member_keys(struct sch_ctx *c, const struct val *models, const char *path);

/*
 * scnp_sw_read() - the world's keys of a validated spec.models @models of
 * @file into @c (defaults already there): spec.models.stagesets and its
 * rules (adoption mapped onto readiness), spec.models.sources.  Cannot fail.
 */
void scnp_sw_read(struct scn_sw_config *c, const struct val *models, const char *file);

/* scnp_sw_read_windows() - a validated scnp_sw_windows_node list @l into @w (sorted by from). */
void scnp_sw_read_windows(const struct val *l, struct scn_sw_windows *w);

/*
 * scnp_sw_note_sources() - one note saying how many
 * sources the StageSets of the run reference that the inputs do not hold
 * (the modelled ones) and how to change them, when the scenario writes
 * spec.models.sources (without it every source is modelled Ready, the
 * documented default, and a run says nothing).  To L->d; cannot fail.
 */
void scnp_sw_note_sources(struct loader *L);

/*
 * scnp_sw_ref_source() - the modelled source a StageSet's sourceRef @ref (a
 * map) names, as the world keys it and spec.models.sources entries match
 * it: *@kind GitRepository, OCIRepository or Bucket as written, else
 * ExternalArtifact (that kind, none, or a producer's kind, whose
 * ExternalArtifact has the producer's name); *@ns the ref's namespace, or
 * @owner_ns (the StageSet's) when it gives none; *@name its name ("" when
 * none).  Each borrowed from @ref or @owner_ns.  Cannot fail.
 */
void scnp_sw_ref_source(const struct val *ref, const char *owner_ns, const char **kind, const char **ns,
			const char **name);

/*
 * scnp_sw_check_names() - after the events are built: a warning at its
 * file:line:col, with a note of what there is (and the nearest), for each
 * spec.models.stagesets.ledgerErrors entry whose namespace or name matches
 * no StageSet of the inputs or of an apply event (it would fail no read),
 * and each key of a spec.models.sources entry's objects (and its updates'
 * objects) that is the name of no stage reading a source the entry matches
 * (those objects would be rendered by no stage).  Nothing when spec.models
 * did not read cleanly (its errors are told) or a StageSet manifest or a
 * spec.generate item was refused (what it held is unknown).  To L->d;
 * cannot fail.  Cost: O(entries × n log n), n the stages of the StageSets.
 */
void scnp_sw_check_names(struct loader *L);

/*
 * scnp_sw_refuse_unsimulated() - an error at its file:line:col for each part
 * of a StageSet (in the inputs or an apply event) the simulated world cannot
 * answer: spec.kubeConfig.configMapRef.  To L->d; cannot fail.
 */
void scnp_sw_refuse_unsimulated(struct loader *L);

/* ---------------------------------------------------------------- scn_events.c: spec.events */

/*
 * What every event record starts with: a validated spec.events item, when
 * it fires and which action it does.
 */
struct event_head {
	const struct val_kv *act; /* the action key and its value, borrowed from the document */
	size_t type;              /* the key's index in its list of action keys (enum scn_*_type) */
	int64_t at_ms;            /* `at`, ms since scenario start */
	size_t index;             /* position in spec.events, 0-based */
	const char *file;         /* borrowed: the scenario file */
};

/*
 * scnp_events_validate() - validates each item of spec.events @events (a
 * list) on its own; sets L->nev and L->ev_ok.  Errors: through @c.
 */
void scnp_events_validate(struct loader *L, struct val *events, struct sch_ctx *c);

/*
 * scnp_build_events() - the scn_event, scn_mevent and scn_fevent records of
 * the events that validated, in file order; apply payloads are admitted
 * here; then every event's target is checked against the objects the run
 * holds by then.  Errors: to L->d; cannot fail.
 */
void scnp_build_events(struct loader *L);

/* scnp_event_release() - frees what @e owns (not @e). */
void scnp_event_release(struct scn_event *e);

/* ---------------------------------------------------------------- scn_targets.c: targets */

/*
 * scnp_read_target() - the identity written in a validated action map @a
 * (apiVersion, kind, namespace, name) into @t (release with
 * scnp_target_release()).  The namespace is "" for a cluster-scoped kind
 * (known from the supported kinds, else from an object of that kind in @s),
 * "default" when omitted.  Cannot fail.
 */
void scnp_read_target(const struct scenario *s, const struct val *a, struct scn_target *t);

/*
 * scnp_check_targets() - every object event but apply must name an object
 * that the inputs define or that an apply event firing before it creates;
 * an apiVersion given must be the object's.  The script is walked in firing
 * order; problems are reported in file order, at the action's key.
 * @acts: per entry of L->s->events, its action key and value (borrowed).
 * Errors: to L->d; cannot fail.
 */
void scnp_check_targets(struct loader *L, const struct val_kv *const *acts);

/*
 * scnp_kind_refused() - whether a manifest or apply payload of @kind (e.g.
 * "StageSet") was refused, or a spec.generate item was (what it would have
 * rendered is unknown): what such an object held is unknown, so a check that
 * no object of @kind matches something stays silent rather than be false.
 * @kind: borrowed.  Cannot fail.
 */
bool scnp_kind_refused(const struct loader *L, const char *kind);

/*
 * scnp_missing() - whether no object of this identity exists by @at_ms (the
 * inputs' or one an apply event at or before then creates; object events
 * fire before model events of the same instant) and no refused manifest or
 * apply payload claimed it (whose own errors then say why it is missing).
 */
bool scnp_missing(const struct loader *L, const char *kind, const char *ns, const char *name,
		  int64_t at_ms);

/*
 * scnp_report_not_found() - the error "spec.events[@index].@action: Kind
 * \"ns/name\" not found" at @file:@mark, with the note that no input or
 * earlier apply event defines @t.  Cannot fail.
 */
void scnp_report_not_found(struct loader *L, const char *file, struct val_mark mark,
			   size_t index, const char *action, const struct scn_target *t);

/* scnp_target_release() - frees what @t owns (not @t). */
void scnp_target_release(struct scn_target *t);

/* ---------------------------------------------------------------- scn_mevents.c: model events */

/* Action keys of a model event, in enum scn_mevent_type order, NULL-terminated. */
extern const char *const scnp_maction_names[];

/* The schemas of the model actions (values of spec.events[i].commit, ...). */
extern const struct sch_node scnp_commit_node;
extern const struct sch_node scnp_next_node;     /* failNext, succeedNext */
extern const struct sch_node scnp_violate_node;
extern const struct sch_node scnp_rrequest_node; /* reconcileRequest */
extern const struct sch_node scnp_approve_node;

/*
 * scnp_build_mevent() - the model event @h (a model action), appended to
 * L->s->mevents (room for it allocated by the caller).  Cannot fail.
 */
void scnp_build_mevent(struct loader *L, const struct event_head *h);

/*
 * scnp_check_mevents() - every model event's Workspace exists by then, a
 * violate event's policy is a ValidatingPolicy of the run, and a commit
 * without `ref` takes the one ref the Workspaces on its repository track.
 * Errors and warnings: to L->d; cannot fail.
 */
void scnp_check_mevents(struct loader *L);

/* scnp_mevent_release() - frees what @e owns (not @e). */
void scnp_mevent_release(struct scn_mevent *e);

/* ---------------------------------------------------------------- scn_fevents.c: fleet events */

/* Action keys of a fleet event, in enum scn_fevent_type order, NULL-terminated. */
extern const char *const scnp_faction_names[];

/* The schemas of the fleet actions (values of spec.events[i].publish, .regress, .drift, .inventory). */
extern const struct sch_node scnp_publish_node;
extern const struct sch_node scnp_regress_node;
extern const struct sch_node scnp_drift_node;
extern const struct sch_node scnp_inventory_node;

/*
 * A StageSet's StageInventory shards are the controller's own, not objects
 * of the store: an apply or delete event of SCNP_INVENTORY_KIND gets
 * scnp_inventory_hint as a note, which names the inventory event.
 */
#define SCNP_INVENTORY_KIND "StageInventory"
extern const char scnp_inventory_hint[];

/*
 * scnp_build_fevent() - the fleet event @h (a fleet action), appended to
 * L->s->fevents (room allocated by the caller).  Cannot fail.
 */
void scnp_build_fevent(struct loader *L, const struct event_head *h);

/*
 * scnp_check_fevents() - a regress event's StageSet exists by then; a
 * publish of a text that is not a semantic version, and a selector no
 * StageSet of the inputs matches, are warnings.  To L->d; cannot fail.
 */
void scnp_check_fevents(struct loader *L);

/* scnp_fevent_release() - frees what @e owns (not @e). */
void scnp_fevent_release(struct scn_fevent *e);

/* ---------------------------------------------------------------- scn_metrics.c: metrics, fleet */

/*
 * scnp_metrics_process() - validates each entry of spec.metrics @metrics (a
 * list) on its own, claims the (query, address) of every entry whose query
 * is a string (L->claimed), reads the entries that validated into
 * L->s->series; then reports entries that repeat a (query, address).
 */
void scnp_metrics_process(struct loader *L, struct val *metrics, struct sch_ctx *c);

/*
 * scnp_fleet_process() - validates spec.fleet @v and, when it validated
 * without error, reads it into L->s->fleet.  Errors: through @c.
 */
void scnp_fleet_process(struct loader *L, struct val *v, struct sch_ctx *c);

/*
 * scnp_check_gates() - every prometheus gate of every FleetRollout the run
 * can hold (the inputs' and those of apply events) has a series; gate
 * addresses the controller would refuse are warnings; a series no gate
 * reads is a warning.  To L->d; cannot fail.
 */
void scnp_check_gates(struct loader *L);

/* scnp_series_release() - frees what @x owns (not @x). */
void scnp_series_release(struct scn_series *x);

/* ---------------------------------------------------------------- scn_generate.c: spec.generate */

/*
 * scnp_generate_validate() - validates each entry of spec.generate @gen (a
 * list) on its own; sets L->ngen and L->gen_ok.  Errors: through @c.
 */
void scnp_generate_validate(struct loader *L, struct val *gen, struct sch_ctx *c);

/*
 * scnp_generate_objects() - the StageSets and Namespaces of every
 * spec.generate entry that validated, admitted into @set after the
 * manifests; sets L->s->ngenerated.  An entry stops at its first refused
 * object, so a bad template or pattern is reported once.  To L->d.
 */
void scnp_generate_objects(struct loader *L, struct man_set *set);

/*
 * scnp_take_run_marks() - reads and takes off what a snapshot of the
 * simulator says of its run (scn_resume.c): SCN_ORIGIN_ANNOTATION into
 * s->has_origin / origin_unix_ms, SCN_TAKEN_ANNOTATION into s->has_taken /
 * taken_unix_ms, every input object carrying
 * SCN_SOURCE_ANNOTATION out of s->objs into s->source_seeds, and
 * SCN_DRAWS_ANNOTATION into s->requeue_draws, SCN_INVENTORY_ANNOTATION
 * into s->shards, SCN_ARMED_ANNOTATION into s->armed (positions only),
 * SCN_JOB_START_ANNOTATION into s->job_starts.  A malformed
 * value, origins (or taken times) that disagree, or the source annotation on an object that
 * is no source with an artifact are errors at the object in @d.
 */
void scnp_take_run_marks(struct scenario *s, struct diag *d);

/*
 * scnp_resolve_armed() - each of s->armed (the positions a snapshot's
 * Workspaces carry in SCN_ARMED_ANNOTATION) resolved to its model event;
 * a position that is no failNext, succeedNext or violate of that Workspace
 * is an error at the Workspace in @d.  Call after the events are built.
 */
void scnp_resolve_armed(struct scenario *s, struct diag *d);

/*
 * scnp_parse_inventory() - the items of an SCN_INVENTORY_ANNOTATION value
 * @v ("<stage>=<entries>[:<ids>]", "render:<stage>=<ids>",
 * "live:<stage>=<ids>", "survivor:<stage>=<id>;<dropped>;<reason>[;<deleted>]",
 * "running:<stage>=<revision>[;<version>]", joined by ",") of StageSet
 * @ns/@name, appended to *@items (*@n of them; grown with xreallocarray, the
 * items and their strings owned by the caller, freed with
 * scnp_inventory_item_clear()).  Returns false, adding none, when @v is
 * empty or not that list (*@items may then have been grown all the same:
 * the caller frees it either way).  Used for snapshots (scnp_take_run_marks()) and
 * for the shards an `inventory` event restores (scn_fevents.c).
 */
bool scnp_parse_inventory(const char *ns, const char *name, const char *v, struct scn_inventory_shard **items,
			  size_t *n);

/* scnp_inventory_item_clear() - frees what item @e of scnp_parse_inventory() owns (not @e). */
void scnp_inventory_item_clear(struct scn_inventory_shard *e);

/* scnp_source_seeds_release() - frees s->source_seeds, requeue_draws, shards and armed; none are left. */
void scnp_source_seeds_release(struct scenario *s);

#endif
