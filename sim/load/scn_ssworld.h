#ifndef MAGOS_SIM_SCN_SSWORLD_H
#define MAGOS_SIM_SCN_SSWORLD_H

/*
 * What a scenario says about the world of the StageSet controller: what lies
 * outside the controller and answers it (sim/models/stageset_world.h turns
 * these settings into answers).  Plain data, filled by the loader from
 *
 *   spec.models.stagesets   how a stage's apply, readiness, ready-check
 *                           expressions, actions and restores go, and when
 *                           the running workload regresses (top level, then
 *                           rules by label selector over the StageSets and
 *                           an optional stage name, first match field by
 *                           field); the completionAnchor witnesses;
 *   spec.models.sources     the Flux sources the StageSets' sourceRefs name
 *                           that the inputs do not hold;
 *   spec.models.pods        the pods and Warning events the restart and
 *                           event gates list, and the list errors;
 *   stagesets.ledgerErrors  when the reads of a StageSet's StageLedger and
 *                           StageInventory fail.
 *
 * scenarios/README.md ("StageSet world") documents every key.  Times are ms
 * since scenario start; durations are distributions in ms (sim/load/dist.h).
 * Every pointer is owned by the struct that holds it unless said otherwise;
 * scn_sw_config_release() frees everything.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/labels.h"
#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "engine/value.h"
#include "sim/load/dist.h"

/* Defaults of the StageSet world; scenarios/README.md documents them. */
#define SCN_SW_DEFAULT_APPLY_MS 1000          /* a stage's fetch → record inventory: constant 1s */
#define SCN_SW_DEFAULT_READY_MS 120000        /* apply of a new revision → objects Current: 2m */
#define SCN_SW_DEFAULT_EXPRS_MS 0             /* objects Current → ready-check expressions hold */
#define SCN_SW_DEFAULT_ACTION_MS 1000         /* one attempt of an action: constant 1s */
#define SCN_SW_DEFAULT_RESTORE_MS 1000        /* a rollback's re-apply of one stage: 1s */
#define SCN_SW_DEFAULT_FETCH_MS 100           /* an artifact fetch (version file, ladder): 100ms */
#define SCN_SW_DEFAULT_REGRESSION_MS 600000   /* a drawn regression lasts 10m */
#define SCN_SW_DEFAULT_REGRESSION_AFTER_MS 0  /* ready → regression onset: 0s */
#define SCN_SW_DEFAULT_INITIAL_VERSION "1.0.0" /* a modelled source's offer before any publish */
#define SCN_SW_DEFAULT_STORE_ERROR "rollback store unavailable" /* a failed Put/Get's text */
#define SCN_SW_CORRUPT_SNAPSHOT_ERROR "unexpected end of JSON input" /* decodeObjects of a corrupt snapshot */

/* A time window [from_ms, until_ms), ms since scenario start; from_ms < until_ms. */
struct scn_sw_window {
	int64_t from_ms;
	int64_t until_ms; /* INT64_MAX: open-ended */
};

/* A list of windows, sorted by from_ms (they may overlap). */
struct scn_sw_windows {
	struct scn_sw_window *items;
	size_t n;
};

/*
 * The operation of a stage apply that fails (spec S-10), in the order a
 * pass runs them; scn_sw_op_text() gives upstream's op text.
 */
enum scn_sw_op {
	SCN_SW_OP_FETCH,              /* "fetch artifact" */
	SCN_SW_OP_DECRYPT,            /* "decrypt" */
	SCN_SW_OP_POST_BUILD,         /* "resolve postBuild variables" */
	SCN_SW_OP_BUILD,              /* "build" */
	SCN_SW_OP_IMAGE_VERIFICATION, /* "image verification" */
	SCN_SW_OP_CONFLICT_POLICY,    /* "conflict policy" */
	SCN_SW_OP_APPLY,              /* "apply" */
	SCN_SW_OP_RECORD_INVENTORY,   /* "record inventory" */
	SCN_SW_NOPS
};

/*
 * How a modelled call fails.  @cls is the error class the controller sees:
 * SSC_ERR (plain, retried), SSC_ERR_TERMINAL_FETCH (an apply's fetch only:
 * digest, size, address), SSC_ERR_FORBIDDEN (RBAC), SSC_ERR_NO_RETRY (an
 * action: HTTP 4xx, forbidden host).  A call fails when its time lies in
 * @during (or @during is empty) and a uniform draw is below @probability.
 */
struct scn_sw_failure {
	double probability;          /* ratio 0..1 per call */
	struct scn_sw_windows during;/* empty: at any time */
	enum scn_sw_op op;           /* an apply's failing op (apply failures only) */
	enum ssc_errc cls;
	char *message;               /* NULL: the default text of the call */
};

/*
 * An object a stage renders besides its workload Deployment (or the workload
 * itself), and when a new revision of the stage changes one of its immutable
 * fields: an apply of such a revision over the object the stage applied
 * before meets an immutable-field conflict, which the controller's conflict
 * handling (engine/stageset_conflict.h) resolves.  A revision changes it when
 * its first apply lies in @during (or @during is empty) and a draw per
 * revision is below @probability.
 */
struct scn_sw_conflict {
	char *api_version;           /* NULL: "apps/v1" for a Deployment, else "v1" */
	char *kind;                  /* NULL: Deployment */
	char *name;                  /* NULL: the workload's, "<stageset>-<stage>" */
	char *ns;                    /* NULL: the StageSet's namespace */
	double probability;          /* ratio 0..1 per revision; default 1 */
	struct scn_sw_windows during;/* empty: at any time */
	bool force_annotation;       /* the manifest carries a non-empty stages.metio.wtf/force */
	char *message;               /* NULL: the server-side apply's dry-run text */
};

/* A stage's apply (fetch → decrypt → postBuild → build → image gate → conflicts → apply → record). */
struct scn_sw_apply {
	bool has_duration;
	struct dist duration;        /* ms per apply */
	bool has_failure;
	struct scn_sw_failure failure;
	bool has_conflicts;
	struct scn_sw_conflict *conflicts; /* the objects with immutable fields, in file order */
	size_t nconflicts;
};

/*
 * How a stage's objects (or its ready-check expressions) become ready after
 * the apply of a new revision: Current after @delay, unless a draw makes them
 * Failed (after the same delay) or never ready.
 */
struct scn_sw_readiness {
	bool has_delay;
	struct dist delay;           /* ms after the first apply of the revision */
	bool has_failed;
	double failed_probability;   /* ratio 0..1 per revision */
	bool has_never;
	double never_probability;    /* ratio 0..1 per revision: still progressing forever */
};

/* What a fault window does to a stage's objects. */
enum scn_sw_effect {
	SCN_SW_EFFECT_FAILED,    /* kstatus Failed: the verify fails fast */
	SCN_SW_EFFECT_NOT_READY, /* kstatus InProgress: the verify runs into its timeout */
};

/* Regressions drawn after a revision becomes ready (fault windows of the running workload). */
struct scn_sw_regression {
	bool has_probability;
	double probability;          /* ratio 0..1 per ready revision */
	bool has_after;
	struct dist after;           /* ms from ready to the onset */
	bool has_duration;
	struct dist duration;        /* ms the fault lasts */
	bool has_versions;
	char **versions;             /* exact version texts that may regress; unset: every version */
	size_t nversions;
	bool has_effect;
	enum scn_sw_effect effect;
};

/* One entry of an `actions` list: the first entry that matches an action decides. */
struct scn_sw_action {
	char *name;                  /* NULL: any action */
	char *stage;                 /* NULL: any stage (onRollback actions have none) */
	char *phase;                 /* NULL: any; pre, post, onFailure, onRollback, migration */
	bool has_duration;
	struct dist duration;        /* ms per attempt */
	bool has_failure;
	struct scn_sw_failure failure;
};

/* What a rollback's restore of one stage finds (env restore_stage). */
enum scn_sw_restore_outcome {
	SCN_SW_RESTORED,             /* the previous revision is re-applied */
	SCN_SW_PREVIOUS_UNAVAILABLE, /* terminal PreviousRevisionUnavailable: no longer fetchable */
	SCN_SW_IMAGE_UNVERIFIED,     /* terminal ImageUnverified */
	SCN_SW_APPLY_FAILED,         /* the re-apply itself fails */
	SCN_SW_TRANSIENT,            /* a transient error (store outage): back-off */
};

struct scn_sw_restore {
	bool has_duration;
	struct dist duration;        /* ms */
	bool has_outcome;
	enum scn_sw_restore_outcome outcome;
	char *message;               /* NULL: the default text */
};

/*
 * What the top level or a rule says.  In a rule a field may be unset (has_*
 * false): the next matching rule, then the top level decides.  At the top
 * level every has_* is true (defaults filled in) but has_conflicts (none
 * given: the stage renders its workload alone) and has_actions, which there
 * means an `actions` list was given (the default action is
 * SCN_SW_DEFAULT_ACTION_MS, success).
 */
struct scn_sw_behaviour {
	struct scn_sw_apply apply;
	struct scn_sw_readiness readiness;
	struct scn_sw_readiness exprs;      /* readyChecks.exprs (CEL), not evaluated: modelled */
	struct scn_sw_regression regression;
	bool has_actions;
	struct scn_sw_action *actions;
	size_t nactions;
	struct scn_sw_restore restore;
};

/* One entry of spec.models.stagesets.rules. */
struct scn_sw_rule {
	struct lbl_selector selector; /* over the StageSet's labels */
	char *selector_text;          /* lbl_selector_string() */
	char *stage;                  /* NULL: every stage; else only this stage's calls */
	struct scn_sw_behaviour b;
	const char *file;             /* borrowed from scenario.files */
	struct val_mark mark;
};

/*
 * A completionAnchor witness: exists from the start with a uid derived from
 * its identity, is gone from @gone_ms on, and exists again with another uid
 * from @recreated_ms on; unreadable (Forbidden) during @unreadable.
 * Witnesses the scenario does not list exist throughout.
 */
struct scn_sw_anchor {
	char *api_version;            /* NULL: any */
	char *kind, *name;
	char *ns;                     /* NULL: any namespace */
	int64_t gone_ms;              /* INT64_MAX: never */
	int64_t recreated_ms;         /* INT64_MAX: never; > gone_ms */
	struct scn_sw_windows unreadable;
};

/*
 * The objects a source revision renders for one stage besides its workload
 * Deployment (sources[].objects, sources[].updates[].objects): each a
 * Kubernetes kind and a name in the StageSet's namespace, in file order,
 * no two alike.
 */
struct scn_sw_stage_objects {
	char *stage;                  /* the stage's name (a StageSet's spec.stages[].name) */
	const char **groups;          /* API group of each kind (static text; "" for the core group) */
	char **kinds, **names;
	size_t n;
};

/* The objects of one revision, per stage (sorted by stage name). */
struct scn_sw_objects {
	struct scn_sw_stage_objects *stages;
	size_t nstages;
};

/*
 * A new revision of a modelled source at a time of its own (sources[].updates[]):
 * from @at_ms on the artifact holds these files instead of the ones before
 * (without `files`: the ones before), and its stages render these objects
 * (without `objects`: the ones before).
 */
struct scn_sw_source_update {
	int64_t at_ms;                /* >= 1 ms, later than the update before */
	bool has_files;
	char **paths, **texts;        /* files of the artifact, sorted by path */
	size_t nfiles;
	bool has_objects;
	struct scn_sw_objects objects;
	struct val_mark mark;         /* the update's place in the file (lint) */
};

/*
 * One entry of spec.models.sources: the modelled sources it matches (kind,
 * namespace and name; NULL matches any).  Fields may be unset: the first
 * entry that matches and sets a field decides, else the default.
 */
struct scn_sw_source {
	char *kind, *ns, *name;
	char *initial_version;        /* NULL: unset */
	bool has_fetch_duration;
	struct dist fetch_duration;   /* ms per fetch of the artifact */
	/* Windows: NULL items and has_* false when unset. */
	bool has_missing, has_not_ready, has_forbidden, has_fetch_errors, has_version_missing,
		has_version_empty;
	struct scn_sw_windows missing;         /* the object is absent (NotFound) */
	struct scn_sw_windows not_ready;       /* Ready False */
	struct scn_sw_windows forbidden;       /* reads are Forbidden */
	struct scn_sw_windows fetch_errors;    /* fetching the artifact fails (transient) */
	struct scn_sw_windows version_missing; /* the version file / label is absent */
	struct scn_sw_windows version_empty;   /* ... present and empty */
	bool has_gc;
	int64_t gc_ms;                /* gcAt: from then on the producer keeps only the revision it offers */
	bool has_files;
	char **paths, **texts;        /* files of the artifact, sorted by path */
	size_t nfiles;
	bool has_objects;
	struct scn_sw_objects objects; /* what the stages render besides the workload */
	bool has_updates;
	struct scn_sw_source_update *updates; /* sorted by at_ms, strictly increasing */
	size_t nupdates;
	const char *file;             /* borrowed */
	struct val_mark mark;
};

/* A restart count from at_ms on. */
struct scn_sw_restarts {
	int64_t at_ms;
	int32_t total;                /* restartCount summed over the group's containers, >= 0 */
};

/* A Warning event on the group's pods, present during [at_ms, until_ms). */
struct scn_sw_warning {
	int64_t at_ms, until_ms;
	char *reason;
	int32_t count;                /* the event's count, >= 1 */
};

/* A group of pods (spec.models.pods[]): what the restart and event gates list. */
struct scn_sw_pods {
	char *ns;                     /* NULL: in every namespace */
	struct obj_strmap labels;     /* the pods' labels */
	struct scn_sw_restarts *restarts; /* sorted by at_ms; before the first: 0 */
	size_t nrestarts;
	struct scn_sw_warning *warnings;  /* in file order */
	size_t nwarnings;
};

/* A list error (spec.models.podListErrors[]). */
struct scn_sw_list_error {
	char *ns;                     /* NULL: every namespace */
	bool pods, events;            /* which lists fail */
	struct scn_sw_window window;
	enum ssc_errc cls;            /* SSC_ERR (transient) or SSC_ERR_FORBIDDEN */
	char *message;                /* NULL: the API server's text */
};

/*
 * A read error of a StageSet's side objects (spec.models.stagesets.ledgerErrors[]):
 * while @window lasts, the Get of its same-name StageLedger (R-17,
 * loadLifetimeLedger) and/or the List of its StageInventory shards (R-18,
 * recorder.StageRecords) fail with a transient API error.
 */
struct scn_sw_read_error {
	char *ns;                     /* NULL: every namespace */
	char *name;                   /* NULL: every StageSet of the namespace(s) */
	bool ledger, inventory;       /* which reads fail (at least one) */
	struct scn_sw_window window;
	char *message;                /* NULL: the API server's text */
};

/*
 * The controller's rollback store (spec.models.stagesets.rollbackStore;
 * upstream's --rollback-store-path / --rollback-store-s3-*): configured
 * when the key is present.  What lies outside the controller: whether a
 * Put or a Get succeeds, and whether what a Put stored decodes.
 */
struct scn_sw_store {
	struct scn_sw_windows put_errors; /* a Put in a window fails (evented, the apply stands) */
	struct scn_sw_windows get_errors; /* a Get in a window fails (an outage: back-off) */
	struct scn_sw_windows corrupt;    /* a Put in a window stores a snapshot that does not decode */
	char *message;                    /* NULL: SCN_SW_DEFAULT_STORE_ERROR */
};

/* The StageSet world with every default filled in. */
struct scn_sw_config {
	struct scn_sw_behaviour top;  /* has_* all true but has_actions, regression.has_versions */
	struct scn_sw_rule *rules;    /* first match wins, field by field */
	size_t nrules;
	struct scn_sw_anchor *anchors;
	size_t nanchors;
	struct scn_sw_source *sources;
	size_t nsources;
	bool any_objects;             /* some source entry or update sets `objects` */
	struct scn_sw_pods *pods;
	size_t npods;
	struct scn_sw_list_error *list_errors;
	size_t nlist_errors;
	struct scn_sw_read_error *read_errors; /* in file order */
	size_t nread_errors;
	bool has_store;               /* a rollback store is configured */
	struct scn_sw_store store;
};

/* scn_sw_config_init() - the defaults above, nothing else.  Cannot fail. */
void scn_sw_config_init(struct scn_sw_config *c);

/* scn_sw_config_release() - frees what @c owns (not @c); accepts NULL. */
void scn_sw_config_release(struct scn_sw_config *c);

/* scn_sw_behaviour_release() - frees what @b owns; @b is then unset (all has_* false). */
void scn_sw_behaviour_release(struct scn_sw_behaviour *b);

/* scn_sw_windows_release() - frees @w's items; @w is then empty.  Accepts NULL. */
void scn_sw_windows_release(struct scn_sw_windows *w);

/*
 * What decides one stage of one StageSet: for each field, the first rule
 * whose selector matches @labels (and whose stage, when it names one, is
 * @stage) and that sets the field, else the top level (which sets every
 * field but the regression's versions).  The one resolution: the StageSet
 * world answers every call of the controller with it
 * (sim/models/stageset_world_stages.c), and lint judges the models with it
 * without running them.  Every pointer is borrowed from the config and
 * valid while it lives.
 */
struct scn_sw_resolved {
	const struct dist *apply_duration;          /* ms per apply */
	const struct scn_sw_failure *apply_failure; /* NULL: applies do not fail */
	const struct scn_sw_apply *apply_conflicts; /* NULL: the stage renders its workload alone */
	const struct scn_sw_readiness *ready_delay, *ready_failed, *ready_never;
	const struct scn_sw_readiness *exprs_delay, *exprs_failed, *exprs_never;
	const struct scn_sw_regression *reg_p, *reg_after, *reg_duration, *reg_effect;
	const struct scn_sw_regression *reg_versions; /* has_versions false: every version */
	const struct scn_sw_restore *restore_duration, *restore_outcome;
};

/*
 * scn_sw_rule_matches() - whether rule @r applies to stage @stage (NULL: a
 * call of no stage) of a StageSet with @labels (NULL: none): its selector
 * matches and, when it names a stage, it is @stage.
 */
bool scn_sw_rule_matches(const struct scn_sw_rule *r, const struct obj_strmap *labels,
			 const char *stage);

/*
 * scn_sw_resolve() - fills @out for stage @stage (NULL: a call of no stage)
 * of a StageSet with @labels (NULL: none).  Cannot fail.
 * Cost: O(rules × selector requirements).
 */
void scn_sw_resolve(const struct scn_sw_config *c, const struct obj_strmap *labels,
		    const char *stage, struct scn_sw_resolved *out);

/*
 * scn_sw_regresses() - whether the regression @r resolved to (reg_versions)
 * may strike a revision carrying @version: its versions list names it, or
 * it has none, or @version is NULL (not known statically).
 */
bool scn_sw_regresses(const struct scn_sw_resolved *r, const char *version);

/*
 * scn_sw_find_action() - the first entry of @b's actions (none unless
 * has_actions) that applies to action @name of stage @stage (NULL: an
 * action of no stage, as onRollback's) in phase @phase: each field it
 * names (name, stage, phase) equals the call's.  The world runs the entry
 * found; lint reads the same one.  Returns it (borrowed from @b) or NULL.
 * Cost: O(actions).
 */
const struct scn_sw_action *scn_sw_find_action(const struct scn_sw_behaviour *b, const char *name,
					       const char *stage, const char *phase);

/*
 * scn_sw_warning_events_at() - the Warning events of @c's pods model that
 * event check @ec of a StageSet in namespace @ns counts at @t_ms, as the
 * world counts them (swg_warning_events(), without its list failures): the
 * pods entries of that namespace (or of every one) whose labels its
 * selector matches, their warnings of a listed reason that hold at @t_ms,
 * each counted `count` times (at least once).
 * @first: receives the earliest start among the warnings counted, INT64_MAX
 *         when none is.
 * Returns: the total.  Cannot fail.  Lint and the run's notices read the
 *          same count.
 * Cost: O(pods entries × warnings × reasons).
 */
int64_t scn_sw_warning_events_at(const struct scn_sw_config *c, const char *ns,
				 const struct sst_event_check *ec, int64_t t_ms, int64_t *first);

/*
 * scn_sw_source_updates() - the spec.models.sources entry whose `updates`
 * the modelled source @kind @ns/@name gets: the first that matches it and
 * sets them, as the world model resolves it (borrowed), NULL: none.
 * Cost: O(entries).
 */
const struct scn_sw_source *scn_sw_source_updates(const struct scn_sw_config *c, const char *kind,
						  const char *ns, const char *name);

/*
 * scn_sw_source_objects() - the `objects` of the first spec.models.sources
 * entry that matches the modelled source @kind @ns/@name and sets them
 * (what its revisions render before any update that sets objects), or
 * NULL.  Borrowed from @c.  Cost: O(entries).
 */
const struct scn_sw_objects *scn_sw_source_objects(const struct scn_sw_config *c, const char *kind,
						  const char *ns, const char *name);

/*
 * scn_sw_source_files_at() - the files the modelled source @kind @ns/@name
 * holds from @t_ms on, when nothing else changes: those of its last update
 * at or before @t_ms that sets files (scn_sw_source_updates()), else the `files` of the
 * first entry that matches and sets them.
 * @paths, @texts, @n: receive the files, sorted by path (borrowed from @c);
 *          *@n 0 when none.
 * Cost: O(entries + updates).
 */
void scn_sw_source_files_at(const struct scn_sw_config *c, const char *kind, const char *ns,
			    const char *name, int64_t t_ms, char *const **paths, char *const **texts,
			    size_t *n);

/*
 * scn_sw_objects_of() - the objects @o names for stage @stage, or NULL when
 * it names none (the stage renders its workload alone).  Borrowed from @o.
 * Cost: O(log stages).
 */
const struct scn_sw_stage_objects *scn_sw_objects_of(const struct scn_sw_objects *o, const char *stage);

/*
 * scn_sw_read_error_at() - the first ledgerErrors entry of @c that fails the
 * StageLedger read (@inventory false) or the StageInventory read (@inventory
 * true) of StageSet @ns/@name at @t_ms (ms since scenario start), or NULL.
 * The world fails the pass's read with it, and lint and the run's notices
 * read the same entries.  Returns a pointer borrowed from @c.
 * Cost: O(entries).
 */
const struct scn_sw_read_error *scn_sw_read_error_at(const struct scn_sw_config *c, const char *ns,
						     const char *name, bool inventory, int64_t t_ms);

/*
 * scn_sw_read_errors_from() - the earliest start of a ledgerErrors entry of
 * @c for StageSet @ns/@name (either read) that has not ended by @t_ms (ms
 * since scenario start), INT64_MAX when none: until then every read of that
 * StageSet succeeds as it did at @t_ms.  Cost: O(entries).
 */
int64_t scn_sw_read_errors_from(const struct scn_sw_config *c, const char *ns, const char *name, int64_t t_ms);

/* scn_sw_in_windows() - whether @t_ms lies in one of @w's windows.  Cost: O(n). */
bool scn_sw_in_windows(const struct scn_sw_windows *w, int64_t t_ms);

/*
 * scn_sw_op_text() - upstream's op text of @op ("fetch artifact", ...), or
 * NULL for SCN_SW_NOPS.
 */
const char *scn_sw_op_text(enum scn_sw_op op);

/* scn_sw_op_key() - the scenario key of @op ("fetch", "postBuild", ...), or NULL. */
const char *scn_sw_op_key(enum scn_sw_op op);

#endif
