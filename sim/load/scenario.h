#ifndef MAGOS_SIM_SCENARIO_H
#define MAGOS_SIM_SCENARIO_H

/*
 * The Scenario: everything one simulation run starts from, loaded from YAML
 * files into plain C structs.
 *
 * Inputs are files or directories.  A directory stands for its `*.yaml`,
 * `*.yml` and `*.json` files, as `kubectl apply -f DIR` reads it (not those
 * whose name starts with '.'; JSON is read as the YAML it is), sorted by name in
 * byte order (strcmp), not recursively.  Each file is a YAML stream holding
 * any number of ordinary Kubernetes manifests and, in at most one file of all
 * the inputs, one document
 *
 *     apiVersion: magos-sim/v1alpha1
 *     kind: Scenario
 *
 * that sets the run's parameters and its scripted events (scenarios/README.md
 * documents every key).  `spec.include` of that document adds manifest files
 * (paths or glob(3) patterns relative to the scenario file's directory); the
 * included files are read right after the scenario file, in the order of the
 * include list, each pattern's matches sorted by name.  A file reached twice
 * (the same path, or a pattern matching the scenario file itself) is read
 * once, where it is first reached.
 *
 * Without a Scenario document (bare-manifest mode) the run parameters take
 * the SCN_DEFAULT_* values below and the name is the first input's base name
 * without its extension ("manifests/demo.yaml" → "demo").
 *
 * Every document other than the Scenario is admitted as the API server would
 * admit it (sim/load/manifest.h: schema defaults, validation, CEL rules; `status`
 * kept as the object's initial state; `kind: List` unpacked).  Two objects
 * with the same kind, namespace and name are an error.  Well-formed objects
 * of kinds no simulated controller reads (ServiceAccount, ConfigMap, ...)
 * are accepted, left out of `objs`, listed in `ignored` and in one note.
 *
 * `spec.models` is read into scenario.models with every default filled in;
 * the events that act on the models (commit, failNext, succeedNext, violate,
 * reconcileRequest, approve) go to scenario.mevents, the fleet events
 * (publish, regress) to scenario.fevents, the others to scenario.events.
 *
 * The fleet side (FleetRollout gates and StageSet members):
 *  - `spec.metrics` → scenario.series: one synthetic Prometheus series per
 *    gate query (sim/load/promseries.h).  After the manifests are admitted, every
 *    wave gate with a `prometheus` source (and no secretRef) of every
 *    FleetRollout of the inputs and of `apply` events must have a series
 *    (scn_find_series()); otherwise it is an error naming the FleetRollout,
 *    the wave and the query.
 *  - `spec.fleet` → scenario.fleet (allowedActionHosts).
 *  - `spec.models.stagesets` → scenario.models.stagesets (adoption,
 *    regression; `migrations` refused; rules by label selector, first match field by
 *    field: scn_stageset_model_for()), and with `spec.models.sources` →
 *    scenario.models.world, the StageSet controller's world
 *    (sim/load/scn_ssworld.h), the member-model keys mapped onto it.
 *  - `spec.metrics` entries of one query that differ in `labels` are
 *    several series; an entry with `url` (and `jsonPath`) instead of
 *    `query` serves a StageSet's webhook metric source.
 *  - `spec.generate` → StageSet and Namespace objects admitted like the
 *    manifests and appended to scenario.objs after them.
 *
 * All problems found are collected into one `struct diag` (file:line:col);
 * loading goes on after an error where it can, so one run lists them all.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/labels.h"
#include "engine/objects.h"
#include "engine/value.h"
#include "sim/base/diag.h"
#include "sim/load/manifest.h"
#include "sim/base/limits.h"
#include "sim/load/dist.h"
#include "sim/load/promseries.h"
#include "sim/load/scn_ssworld.h"

#define SCN_API_VERSION "magos-sim/v1alpha1"
#define SCN_KIND "Scenario"

/* Defaults, used when the Scenario document omits a key or is absent. */
#define SCN_DEFAULT_SEED 1
#define SCN_DEFAULT_HORIZON_MS (24 * 3600 * 1000LL)       /* 24h */
#define SCN_DEFAULT_START_UNIX_MS 1767225600000LL          /* 2026-01-01T00:00:00Z */
#define SCN_DEFAULT_API_LATENCY_MS 0                      /* write → watch delivery */
#define SCN_DEFAULT_RECONCILE_MS 0                        /* one reconcile's duration */
/*
 * Events per run: max(SCN_MIN_EVENT_BUDGET, SCN_EVENTS_PER_OBJECT × objects)
 * unless spec.limits.eventBudget says otherwise (SCN_DEFAULT_EVENT_BUDGET, 0,
 * stands for that).  At the engines' cost per event (docs/limits.md) a
 * million keeps a small run within seconds, and a long horizon of periodic
 * requeues ends at the budget with a clear message instead of running for
 * minutes; a fleet of N members needs about 60 events a member to complete,
 * so the budget grows with the objects rather than stopping a 20 000-member
 * fleet half way.
 */
#define SCN_DEFAULT_EVENT_BUDGET 0ULL
#define SCN_MIN_EVENT_BUDGET 1000000ULL
#define SCN_EVENTS_PER_OBJECT 500ULL
/* Events at one simulated ms: 0 leaves the runtime's bound, max(100000, 50 × objects). */
#define SCN_DEFAULT_EVENTS_PER_INSTANT 0

enum scn_event_type {
	SCN_EV_APPLY,    /* create the object, or replace it when it exists */
	SCN_EV_DELETE,   /* request deletion (finalizers still apply) */
	SCN_EV_ANNOTATE, /* set / remove annotations */
	SCN_EV_LABEL,    /* set / remove labels */
	SCN_EV_PATCH,    /* JSON merge patch over metadata.labels/annotations and spec */
	SCN_EV_STATUS,   /* JSON merge patch over status */
};

/* Model defaults (spec.models absent or silent); scenarios/README.md documents them. */
#define SCN_DEFAULT_PLAN_MS 15000          /* plan Job duration: constant 15s */
#define SCN_DEFAULT_APPLY_MS 25000         /* apply Job duration: constant 25s */
#define SCN_DEFAULT_POD_STARTUP_MS 5000    /* runner slot → container running */
#define SCN_DEFAULT_GIT_HEAD "main"        /* the branch a remote's HEAD points at */

/*
 * Scripted events that act on the models rather than write an object: they
 * live in scenario.mevents, apart from scenario.events, and sim/models/models
 * schedules them (mdl_schedule_events()).
 */
enum scn_mevent_type {
	SCN_MEV_COMMIT,            /* a new commit on a remote ref */
	SCN_MEV_FAIL_NEXT,         /* the next plan/apply Job of a Workspace fails */
	SCN_MEV_SUCCEED_NEXT,      /* ... succeeds, whatever the probabilities say */
	SCN_MEV_VIOLATE,           /* the next plan of a Workspace violates a policy */
	SCN_MEV_RECONCILE_REQUEST, /* annotation magosproject.io/reconcile-request */
	SCN_MEV_APPROVE,           /* annotation magosproject.io/approved: "true" */
};

/* Job types of the JOB CONTRACT; used as an index (job[SCN_JOB_PLAN]). */
enum scn_job_type { SCN_JOB_PLAN, SCN_JOB_APPLY, SCN_JOB_NTYPES };

/* Which object an event acts on. */
struct scn_target {
	char *api_version; /* owned; as written, or NULL when the event did not say */
	char *kind;        /* owned */
	char *ns;          /* owned; "" for cluster-scoped kinds, "default" when omitted */
	char *name;        /* owned */
};

/*
 * One scripted event.  Invariants: 0 <= at_ms unless done; the fields used by each type
 * are listed below, the others are NULL / empty.
 */
struct scn_event {
	enum scn_event_type type;
	int64_t at_ms;              /* ms since scenario start */
	size_t index;               /* position in spec.events, 0-based (model events share the list) */
	struct scn_target target;   /* for APPLY: the identity of obj */
	/* APPLY: the admitted object (owned; src.file borrows scenario.files). */
	struct obj *obj;
	/* ANNOTATE, LABEL: keys to set (owned, sorted) and keys to remove (owned). */
	struct obj_strmap set;
	char **remove;
	size_t nremove;
	/*
	 * PATCH: merge patch of the object, a map with at most the keys
	 * "metadata" (itself with at most "labels" and "annotations") and "spec".
	 * STATUS: merge patch of the status map.  Owned.
	 */
	struct val *merge;
	const char *file;           /* borrowed from scenario.files */
	struct val_mark mark;       /* where the event's `at` sits */
	bool done;                  /* before a resumed run's start: not fired (scn_resume_clock()) */
};

/*
 * One model event.  Invariants: 0 <= at_ms unless done; @target names a Workspace for
 * every type but COMMIT (kind "Workspace", api_version NULL).
 */
struct scn_mevent {
	enum scn_mevent_type type;
	int64_t at_ms;            /* ms since scenario start */
	size_t index;             /* position in spec.events, 0-based */
	struct scn_target target; /* the Workspace (not for COMMIT) */
	enum scn_job_type job;    /* FAIL_NEXT, SUCCEED_NEXT */
	char *policy;             /* VIOLATE: ValidatingPolicy name (owned) */
	char *value;              /* RECONCILE_REQUEST: explicit annotation value, or NULL for
				   * the simulated wall time in RFC 3339 (owned) */
	char *repo_url;           /* COMMIT (owned) */
	char *ref;                /* COMMIT: the ref as given or resolved at load (owned; NULL only while a load with errors left it unresolved) */
	char *sha;                /* COMMIT: 40 lower-case hex digits, or NULL: derived (owned) */
	const char *file;         /* borrowed from scenario.files */
	struct val_mark mark;     /* where the event's action key sits */
	bool done;                /* before a resumed run's start: not fired; a COMMIT stays
				   * in its remote's history (scn_resume_clock()) */
};

/*
 * Plan or apply model: durations and failures of Jobs of one type.  In a rule
 * a field may be unset (has_* false: the next matching rule or the default
 * decides); in scn_models.job both are always set after loading.
 */
struct scn_job_model {
	bool has_duration;
	struct dist duration;       /* ms, from the container's start to the Job's end; owned */
	bool has_failure;
	double failure_probability; /* ratio 0..1 */
};

/* One entry of spec.models.jobs.rules. */
struct scn_job_rule {
	struct lbl_selector selector;                /* over the Workspace's labels; owned */
	char *selector_text;                         /* lbl_selector_string() (owned) */
	struct scn_job_model job[SCN_JOB_NTYPES];
	const char *file;                            /* borrowed from scenario.files */
	struct val_mark mark;
};

/* One entry of spec.models.policies. */
struct scn_policy_model {
	char *name;                    /* a ValidatingPolicy's metadata.name (owned) */
	double violation_probability;  /* ratio 0..1 per checked plan */
};

/* A simulated git remote (spec.models.git.repositories[]). */
struct scn_git_window {
	int64_t from_ms, until_ms; /* unreachable in [from, until), ms since start */
};
struct scn_git_ref {
	char *ref;      /* as written (owned) */
	char sha[41];   /* initial SHA, 40 lower-case hex */
};
struct scn_git_repo {
	char *url;                         /* owned */
	char *head;                        /* branch HEAD points at (owned) */
	struct scn_git_ref *refs;          /* initial SHAs given (owned) */
	size_t nrefs;
	struct scn_git_window *unreachable;/* owned, sorted by from_ms */
	size_t nunreachable;
};

/* ---------------------------------------------------------------- fleet side */

/* Defaults of the fleet side; scenarios/README.md documents them. */
#define SCN_DEFAULT_SERIES_INTERVAL_MS 60000    /* spec.metrics[].interval: 1m */
#define SCN_DEFAULT_ADOPTION_MS 120000          /* stagesets adoption duration: constant 2m */
#define SCN_DEFAULT_REGRESSION_MS 600000        /* stagesets regression duration: constant 10m */
#define SCN_DEFAULT_REGRESSION_AFTER_MS 0       /* adoption → regression onset: constant 0s */

/*
 * One entry of spec.metrics: the synthetic series a gate query returns.
 * Invariants: interval_ms > 0; (query, address) unique among the entries.
 */
struct scn_series {
	char *query;            /* exact PromQL text, compared byte for byte with a gate's (owned);
				 * NULL for a webhook entry */
	char *address;          /* owned; NULL: matches a gate of any address */
	char *url;              /* a webhook entry: the source's url (owned), else NULL */
	char *json_path;        /* a webhook entry: its jsonPath, NULL: any (owned) */
	struct obj_strmap labels; /* the series' labels: entries of one query differing in labels
				 * are several series of one instant vector */
	struct scn_sw_windows unavailable; /* the source answers HTTP 503 meanwhile (owned) */
	int64_t interval_ms;    /* sample spacing, ms; sample i sits at i * interval_ms */
	char *values;           /* the expanding notation as written (owned) */
	struct ps_series series;/* ps_parse() of values (owned) */
	/*
	 * A resumed run's scenario.resumed_ms: sample i sits at simulated time
	 * i * interval_ms - offset_ms, where it sat on the original run's clock
	 * (the readers add it to the time they read at).  0 otherwise.
	 */
	int64_t offset_ms;
	const char *file;       /* borrowed from scenario.files */
	struct val_mark mark;   /* where the entry's `query` sits */
};

/* spec.fleet: settings of the stageset-controller process. */
struct scn_fleet {
	/*
	 * --allowed-action-hosts: Go path.Match patterns (checked at load with
	 * thr_path_match()), owned; none = every host allowed (upstream default).
	 */
	char **allowed_action_hosts;
	size_t nallowed_action_hosts;
};

/*
 * Adoption of an approved version by a StageSet member.  In a rule a field
 * may be unset (has_* false: the next matching rule or the top level
 * decides); at the top level (scn_stageset_models.adoption) both are set.
 */
struct scn_adoption_model {
	bool has_duration;
	struct dist duration;       /* ms from approval to the version's adoption (or failure); owned */
	bool has_failure;
	double failure_probability; /* ratio 0..1: the adoption ends Ready False StageFailed */
};

/*
 * Regression of a member after it adopted a version: with `probability` the
 * member goes not-Ready `after` the adoption, for `duration`.  Fields may be
 * unset in a rule as in scn_adoption_model; all are set at the top level.
 */
struct scn_regression_model {
	bool has_probability;
	double probability;         /* ratio 0..1 per adoption */
	bool has_duration;
	struct dist duration;       /* ms the member stays not-Ready; owned */
	bool has_after;
	struct dist after;          /* ms from the adoption to the onset; owned */
	bool has_versions;
	char **versions;            /* owned; the adopted versions (exact text) that may
				     * regress; has_versions false = every version */
	size_t nversions;
};

/* One entry of spec.models.stagesets.rules. */
struct scn_stageset_rule {
	struct lbl_selector selector;       /* over the StageSet's labels; owned */
	char *selector_text;                /* lbl_selector_string() (owned) */
	struct scn_adoption_model adoption;
	struct scn_regression_model regression;
	const char *file;                   /* borrowed from scenario.files */
	struct val_mark mark;
};

/* spec.models.stagesets with every default filled in. */
struct scn_stageset_models {
	struct scn_adoption_model adoption;     /* has_* all true */
	struct scn_regression_model regression; /* has_* all true but has_versions */
	struct scn_stageset_rule *rules;        /* owned; first match wins, field by field */
	size_t nrules;
};

/*
 * The model of one StageSet after rules and defaults (scn_stageset_model_for());
 * every pointer borrows from the scn_models it was resolved from.
 */
struct scn_stageset_model {
	const struct dist *adoption_duration;     /* ms */
	double adoption_failure_probability;      /* ratio 0..1 */
	double regression_probability;            /* ratio 0..1 */
	const struct dist *regression_duration;   /* ms */
	const struct dist *regression_after;      /* ms */
	bool regression_all_versions;             /* true: every version may regress */
	char *const *regression_versions;         /* else: these (exact text) */
	size_t nregression_versions;
};

/* Scripted fleet events (scenario.fevents). */
enum scn_fevent_type {
	SCN_FEV_PUBLISH, /* the members' source offers a new version from then on */
	SCN_FEV_REGRESS, /* members go not-Ready for a while */
	SCN_FEV_DRIFT,   /* an out-of-band edit of the members' rendered workload */
	SCN_FEV_INVENTORY, /* a StageSet's StageInventory shards deleted, or replaced by a backup */
};

/*
 * One fleet event.  Invariants: 0 <= at_ms unless done; PUBLISH: version set, selector
 * set; REGRESS: for_ms >= 1 and either a name (target.name non-NULL) or a
 * selector (by_selector); DRIFT: a name or a selector, as REGRESS;
 * INVENTORY: a name, and every item of inv_restore a shard
 * (SCN_INV_SHARD) of a stage of that StageSet as the inputs define it.
 */
struct scn_fevent {
	enum scn_fevent_type type;
	int64_t at_ms;                  /* ms since scenario start */
	size_t index;                   /* position in spec.events, 0-based */
	bool by_selector;               /* PUBLISH always; REGRESS when `selector` was given */
	struct lbl_selector selector;   /* over StageSet labels (owned; empty when unused) */
	char *selector_text;            /* lbl_selector_string() (owned) or NULL */
	bool has_ns_selector;           /* PUBLISH: namespaceSelector given; absent = every namespace */
	struct lbl_selector ns_selector;/* over Namespace labels (owned) */
	char *ns_selector_text;         /* owned or NULL */
	char *version;                  /* PUBLISH: as written (`1.10` stays "1.10"), owned */
	/*
	 * REGRESS, DRIFT: by name, target is the StageSet (kind "StageSet", ns
	 * default "default", name); by selector, target.name is NULL and
	 * target.ns is the namespace given or NULL for every namespace.  Unused
	 * for PUBLISH.
	 */
	struct scn_target target;
	char *stage;                    /* DRIFT: the stage whose workload is edited (owned); NULL: every stage */
	int64_t for_ms;                 /* REGRESS: how long the members stay not-Ready, ms >= 1 */
	enum scn_sw_effect effect;      /* REGRESS: what the fault does to the workload's objects */
	/*
	 * INVENTORY: the shards that replace the StageSet's (owned, in the
	 * order given); none (ninv_restore 0) for `delete: true`, which
	 * deletes them all.
	 */
	struct scn_inventory_shard *inv_restore;
	size_t ninv_restore;
	const char *file;               /* borrowed from scenario.files */
	struct val_mark mark;           /* where the event's action key sits */
	/*
	 * Before a resumed run's start (scn_resume_clock()): a PUBLISH reaches
	 * no StageSet (what it offered is in the snapshot: spec.version, the
	 * modelled sources of SCN_SOURCE_ANNOTATION); a REGRESS still holds its
	 * window on the StageSets the snapshot holds, and is not told again.
	 */
	bool done;
};

/*
 * spec.models, with every default filled in (sim/models/models reads only this).
 * Invariant: job[t].has_duration and job[t].has_failure are true.
 */
struct scn_models {
	bool given;                   /* spec.models was present */
	uint32_t capacity;            /* runner slots; 0 = unlimited */
	int64_t pod_startup_ms;       /* >= 0 */
	struct scn_job_model job[SCN_JOB_NTYPES];
	struct scn_job_rule *rules;   /* owned; first match wins, field by field */
	size_t nrules;
	struct scn_policy_model *policies; /* owned; unique names */
	size_t npolicies;
	struct scn_git_repo *repos;   /* owned; unique urls */
	size_t nrepos;
	struct scn_stageset_models stagesets; /* spec.models.stagesets with defaults */
	/*
	 * The StageSet world (spec.models.stagesets' world keys, spec.models.
	 * sources), defaults filled in; the member-model keys adoption and
	 * regression are mapped onto it.
	 */
	struct scn_sw_config world;
};


/*
 * The loaded run.  Invariants: objs hold unique (kind, ns, name) keys and are
 * in input order (files in the order read, documents in file order), then
 * the ngenerated objects of spec.generate (entries in order, per index its
 * Namespace when new, then its StageSet); events, mevents and fevents are
 * each in file order and share spec.events indices (the runtime fires equal
 * times in this order); every string is owned unless said otherwise.
 */
/*
 * Where the wall-clock time of simulated time 0 comes from, in order of
 * precedence: `--now` (set by the command), the time a snapshot of the
 * simulator was taken (SCN_TAKEN_ANNOTATION: its run's Scenario document,
 * spec.start included, names the original run's clock, not this one's),
 * spec.start, the latest time the
 * cluster wrote into the manifests (a `kubectl get -o yaml` snapshot:
 * metadata.creationTimestamp, deletionTimestamp and managedFields[].time,
 * and every RFC 3339 string under status, such as lastTransitionTime or a
 * Job's startTime, but the times to come there, keys starting "next" or
 * ending "Until" (nextReconcileTime, soakUntil); times in spec and
 * annotations are what users wrote and are not read), else
 * SCN_DEFAULT_START_UNIX_MS.
 */
enum scn_clock {
	SCN_CLOCK_DEFAULT,  /* no time in the inputs */
	SCN_CLOCK_START,    /* spec.start */
	SCN_CLOCK_SNAPSHOT, /* the latest timestamp in the manifests */
	SCN_CLOCK_NOW,      /* --now */
	SCN_CLOCK_TAKEN,    /* when a snapshot of the simulator was taken (SCN_TAKEN_ANNOTATION) */
};

/*
 * What a snapshot of the simulator says of the run it was taken from
 * (written by run --snapshot, sim/observe/kubeget.h; the loader reads and
 * takes them off):
 *
 *   SCN_ORIGIN_ANNOTATION, on every object: the wall-clock time (RFC 3339)
 *   of that run's simulated 0, the clock every time of its Scenario
 *   document counts on.  All the objects that carry it must agree.
 *
 *   SCN_TAKEN_ANNOTATION, on every object: the wall-clock time (RFC 3339,
 *   to the millisecond) at which the snapshot was taken, where a run of it
 *   starts unless `--now` says otherwise.  All the objects that carry it
 *   must agree.
 *
 *   SCN_SOURCE_ANNOTATION, on a GitRepository, OCIRepository, Bucket or
 *   ExternalArtifact: the object is a source the StageSet world modelled
 *   (sim/models/stageset_world.h), as sws_source_get() showed it at the
 *   snapshot after a publish reached it, and the value is the version its
 *   revision carries.  It is not stored: the resumed run's world models the
 *   source from that revision on (scenario.source_seeds).
 */
#define SCN_ORIGIN_ANNOTATION "clock.magos-sim.io/origin"
#define SCN_TAKEN_ANNOTATION "clock.magos-sim.io/taken"
/*
 * SCN_SCENARIO_ANNOTATION, on every object when that run had a Scenario
 * document: its metadata.name; SCN_SEED_ANNOTATION, on every object: the
 * run's seed (decimal).  A run resumed with another Scenario or seed is
 * warned about (scn_warn_other_run()); all the objects must agree.
 */
/*
 * SCN_JOB_START_ANNOTATION, on a Job the Job runner runs (waiting for a
 * slot, starting or running): its status.startTime to the millisecond
 * (RFC 3339).  status.startTime is a metav1.Time, whole seconds, as
 * upstream writes it; the runner counts the Job's run from the untruncated
 * instant, so a resumed Job takes its elapsed time from this one (its
 * activeDeadlineSeconds still from status.startTime, as the Job controller
 * counts it).  Its whole seconds must be status.startTime.
 */
#define SCN_JOB_START_ANNOTATION "clock.magos-sim.io/start-time"
#define SCN_SCENARIO_ANNOTATION "run.magos-sim.io/scenario"
#define SCN_SEED_ANNOTATION "run.magos-sim.io/seed"
#define SCN_SOURCE_ANNOTATION "model.magos-sim.io/source-version"
/*
 * SCN_DRAWS_ANNOTATION, on a StageSet: how many jittered requeues
 * (upstream's JitteredRequeueInterval) the StageSet controller had drawn for
 * it, a decimal count >= 1 (absent: none).  Each draw has its own random
 * stream "stageset/<ns>/<name>/requeue#<k>" (sim/wire/stageset_rc.h), so
 * the resumed run's next one is k + 1, as in the uninterrupted run.
 */
#define SCN_DRAWS_ANNOTATION "draws.magos-sim.io/stageset-requeue"
/*
 * SCN_INVENTORY_ANNOTATION, on a StageSet: the StageInventory shards the
 * StageSet controller had written, "<stage>=<entries>" for each, joined by
 * ",".  A shard that lists objects besides the workload
 * (spec.models.sources[].objects) is "<stage>=<entries>:<id>;<id>..." with
 * its <entries> entry IDs in order; items "render:<stage>=<id>;..." give
 * what a stage's last apply rendered when it named objects, and
 * "live:<stage>=<id>;..." the objects besides workloads that stage applied
 * which live in the cluster, and
 * "survivor:<stage>=<id>;<dropped>;<reason>[;<deleted>]" each object a pass
 * ending at <dropped> (RFC 3339) with <reason> (the pass's exit, as
 * PromotionHold) left in no shard (StageSet spec §5 Q-28), <deleted> when a
 * later pass deleted it after all, so the prune and the Q-28 notices of the
 * resumed run are the uninterrupted run's; and
 * "running:<stage>=<revision>[;<version>]" the revision a stage runs when
 * it is not the one status.stages[].appliedRevision names (a whole-run
 * rollback put back the last good one, StageSet spec §5 Q-27), as a pass
 * in flight found it, which the resumed world runs instead.  A shard with its count alone
 * lists the workload; "<stage>=0" says the stage has no shard although its
 * status.stages[].entriesCount counts entries (an `inventory` event deleted it).  A snapshot holds no StageInventory (a kind accepted and ignored);
 * without this annotation a shard is taken from status.stages[].entriesCount,
 * which a stage that failed does not show, so its next pass would rebuild
 * an inventory the cluster has.
 */
#define SCN_INVENTORY_ANNOTATION "model.magos-sim.io/inventory"
/*
 * SCN_ARMED_ANNOTATION, on a Workspace: the model events that had fired
 * and not yet met their Job at the snapshot (a failNext or succeedNext
 * waiting for the Workspace's next plan or apply, a violate for its next
 * checked plan), as their 1-based positions in spec.events joined by ","
 * in the order they fired.  The resumed run (with the same Scenario
 * document) holds them armed from its start (scenario.armed).
 */
#define SCN_ARMED_ANNOTATION "model.magos-sim.io/armed-events"

/* One event of SCN_ARMED_ANNOTATION. */
struct scn_armed {
	char *ns, *name;       /* the Workspace that carried it (owned) */
	size_t pos;            /* its 1-based position in spec.events */
	size_t mevent;         /* index into scenario.mevents: a failNext, succeedNext or violate of
				* that Workspace (checked when the events are built) */
	const char *file;      /* borrowed from scenario.files */
	struct val_mark mark;  /* the Workspace's */
};

/* What an item of SCN_INVENTORY_ANNOTATION records. */
enum scn_inv_item {
	SCN_INV_SHARD,  /* "<stage>=<entries>[:<ids>]": a StageInventory shard */
	SCN_INV_RENDER, /* "render:<stage>=<ids>": what the stage's last apply rendered */
	SCN_INV_LIVE,   /* "live:<stage>=<ids>": objects besides workloads it applied, still in the cluster */
	SCN_INV_SURVIVOR, /* "survivor:<stage>=<id>;<dropped>;<reason>[;<deleted>]": a §5 Q-28 survivor */
	SCN_INV_RUNNING,  /* "running:<stage>=<revision>[;<version>]": ids[0] the revision the stage
			   * runs, ids[1] its version, when not status.stages[].appliedRevision */
};

/* One item of SCN_INVENTORY_ANNOTATION. */
struct scn_inventory_shard {
	char *ns, *name, *stage; /* the StageSet and the stage (owned) */
	enum scn_inv_item what;
	int64_t entries;         /* a shard's, >= 1, or 0 for "<stage>=0" (no shard: it was deleted
				  * while status.stages[].entriesCount still counts it); for the others, nids */
	char **ids;              /* entry IDs "<group>_<Kind>_<ns>_<name>" (owned); NULL for a
				  * shard given by its count alone (the workload's ID is taken) */
	size_t nids;             /* a shard's equals entries when ids is not NULL */
	/* a survivor's (ids holds its ID alone): the end of the pass that dropped it, when a
	 * later pass deleted it (has_deleted), ms since the epoch, and how that pass ended */
	int64_t dropped_unix_ms, deleted_unix_ms;
	bool has_deleted;
	const char *reason;      /* ssc_exit_name() (static) */
};

/* A Job's SCN_JOB_START_ANNOTATION. */
struct scn_job_start {
	char *ns, *name;      /* owned */
	int64_t start_unix_ms; /* status.startTime to the millisecond */
};

/* A StageSet's count of SCN_DRAWS_ANNOTATION. */
struct scn_draw_count {
	char *ns, *name; /* owned */
	uint32_t n;
};

/* A modelled source a snapshot carries (SCN_SOURCE_ANNOTATION). */
struct scn_source_seed {
	char *kind, *ns, *name;  /* owned */
	char *revision;          /* status.artifact.revision (owned) */
	char *digest, *path, *url; /* status.artifact's, NULL when absent (owned) */
	char *version;           /* the annotation's value (owned) */
	int64_t since_unix_ms;   /* status.artifact.lastUpdateTime, wall-clock ms */
};

struct scenario;
/*
 * scn_clock_said() - the words for where @s's clock starts, for the first
 * line of a report ("the latest timestamp in the inputs"), or NULL when it
 * is spec.start or the default (the scenario says it).  Borrowed, static.
 */
const char *scn_clock_said(const struct scenario *s);

/*
 * scn_warn_later_times() - a warning in @d, at the field, when the inputs
 * carry a time later than @s's clock start (scenario.latest_*): the run
 * would start before the state it loads (a Job started in its future, a
 * condition that has not happened yet), as when `--now` or spec.start is
 * earlier than the snapshot.  One line, naming the latest such time; none
 * when every time is at or before the start.  Without an origin (a kubectl
 * export), a note under it at the earliest creationTimestamp or status time
 * after the start, naming it and the start: from there on the run reads
 * what the objects date as at its start (the steps view's 0s*).  Call once
 * the clock is final.
 */
void scn_warn_later_times(const struct scenario *s, struct diag *d);

/*
 * scn_warn_other_run() - a warning in @d, at the first object of the
 * snapshot that names its run, when @s resumes a snapshot of the simulator
 * with another Scenario document than that run's (another name, none where
 * it had one, or one where it had none) or another seed than that run's
 * (@seed: this run's effective seed; @seed_given: --seed gave it).  A
 * warning, not an error: resuming with other models is a question one may
 * ask on purpose.  A snapshot of the simulator that does not say its seed,
 * loaded without a Scenario document and without --seed, is warned about
 * instead: the seed is the default, nothing says it is the original run's.
 * Nothing for a snapshot that does not name its run otherwise.
 */
void scn_warn_other_run(const struct scenario *s, uint64_t seed, bool seed_given, struct diag *d);

/*
 * What a snapshot of the simulator says of the controllers' work queues:
 * annotations SCN_QUEUE_PREFIX<controller> on the objects of the
 * controller's For() kind (written by run --snapshot; format in
 * sim/observe/kubeget.h).  The loader takes them off the objects.  A
 * controller named by any of them has its queue restored at the start of
 * the run (these entries, nothing from the informers' initial list); any
 * other controller starts as after a restart.
 */
#define SCN_QUEUE_PREFIX "queue.magos-sim.io/"
#define SCN_NQUEUE_CONTROLLERS 6

/*
 * What a snapshot of the simulator says of a controller's memory besides its
 * queue (sim/observe/kubeget.h): annotation SCN_STATE_PREFIX<controller>.
 * Only the RefWatcher keeps any, on Workspaces (SCN_REFWATCHER_STATE_FORMAT
 * below); the loader takes it off into scenario.refwatcher.  Besides, the
 * run's observer: SCN_OBSERVER_STATE, into scenario.observer.
 */
#define SCN_STATE_PREFIX "state.magos-sim.io/"

/*
 * SCN_REFWATCHER_STATE_FORMAT - the annotation SCN_STATE_PREFIX "refwatcher"
 * a snapshot of the simulator gives each Workspace the RefWatcher has
 * registered: the registry entry, which upstream keeps in memory only, and
 * the pushes of its heap not yet popped, so that a resumed run polls when the
 * whole run would and compares with the SHA it last saw, instead of seeding
 * it from status.observedRevision as a restarted RefWatcher does (Magos spec
 * §7 #18).  Values are percent-encoded (bytes <= ' ', '%', ',' and >= 0x7f as
 * %XX); each push is its wall-clock time and the order it was pushed in.
 */
#define SCN_REFWATCHER_STATE_FORMAT \
	"lastSHA=SHA url=URL ref=REF intervalMs=INT polls=RFC3339#INT[,RFC3339#INT...]"

/* One Workspace's RefWatcher entry restored from a snapshot (strings owned; times wall-clock ms). */
struct scn_refwatcher_entry {
	char *ns, *name, *url, *ref, *last_sha;
	int64_t interval_ms;   /* > 0 */
	struct scn_refwatcher_poll {
		int64_t at_unix_ms;
		uint64_t order;  /* the order it was pushed in */
	} *polls;
	size_t npolls;
};

/*
 * SCN_OBSERVER_STATE - the annotation SCN_STATE_PREFIX "observer" a snapshot
 * of the simulator gives each Workspace and Rollout the run's observer
 * (sim/observe/observe.h, sim/run/magos_revisions.h) knows history of: what
 * happened before the snapshot that the objects no longer show (who granted
 * a Workspace and when, when each step opened, the halt and its blast
 * radius, a revision seen mid-run), so that a resumed run tells the notices
 * the uninterrupted run tells.  Space-separated KEY=VALUE pairs, each key at
 * most once, every one optional; values percent-encoded as
 * SCN_REFWATCHER_STATE_FORMAT's; TIME is RFC 3339 (wall clock, ms).
 * Workspace keys (sim/observe/observe.h struct obs_workspace, the first
 * instant of each; sim/run/magos_revisions.c for the revision keys):
 *   granted planning applying applied failed planContainer revisionSeen
 *   revisionContainer absorbedSeen absorbedContainer absorbedApplied
 *   absorbedNextPlan (TIME), revision revisionPhase absorbed absorbedPhase
 *   (text); and sim/run/magos_quirks.c's: lastPlanning resetFirst (TIME),
 *   resets (INT), resetReason (text), resetRunMs (INT, ms, -1 not known);
 *   runs (INT, the plans it started, one in progress included).
 * Rollout keys (struct obs_rollout): created completed (TIME), steps (per
 * step in spec order, "OPENED/COMPLETED" with TIME or "-", comma-separated),
 * and, when it was halted, halted (TIME, its first halt, when known), blast
 * (the Workspaces that had begun applying by its halt, comma-separated),
 * blastTotal (INT >= 0, the Project's Workspaces then), haltStep (INT, the
 * index of its step, -1 not known) and haltReason, haltMessage (text): a
 * halt it recovered from is in no status.  FleetRollout keys (sim/observe/fleetobs.c fo_state(), the fleet
 * observer's): completed (TIME), waves, halts, blastWaves (comma lists of
 * "/"-separated fields, each field percent-escaped again), badVersion,
 * onsetMember (text), blast, onBad (names), onset, noticed (TIME),
 * blastTotal, exposure, afterHalt, remediated, onsetWindow; the forms are
 * in scenarios/README.md.
 */
#define SCN_OBSERVER_STATE "observer"

/* One object's SCN_OBSERVER_STATE, validated, its values decoded (strings owned). */
struct scn_observer_state {
	char *kind, *ns, *name;
	char **keys, **values;
	size_t n;
};

/*
 * scn_observer_get() - the decoded value of @key in the observer state of
 * @kind @ns/@name in @s, or NULL when @s has none for it or it lacks @key.
 * Borrowed.  O(objects with state + keys).
 */
const char *scn_observer_get(const struct scenario *s, const char *kind, const char *ns,
			     const char *name, const char *key);

/* scn_queue_controller() - the name of controller index @i (< SCN_NQUEUE_CONTROLLERS), else NULL; static. */
const char *scn_queue_controller(size_t i);

struct scn_queue_entry {
	size_t controller;     /* index, see scn_queue_controller() */
	char *ns, *name;       /* the key (owned) */
	int64_t ready_unix_ms; /* when its delay ends (wall clock, ms); at or before the start: ready;
				* in_flight: when the pass started */
	bool in_flight;        /* a pass in flight, to be made again as of ready_unix_ms */
	bool has_next;         /* in_flight: the key's entry besides, at next_unix_ms, next_priority */
	int64_t next_unix_ms;
	int next_priority;
	int priority;          /* the entry's; in_flight: the pass's */
	uint64_t order;        /* rank among the controller's entries: add them in this order */
	uint32_t failures;     /* the rate limiter's error count, 0 when none */
};

/*
 * scn_set_clock() - moves simulated time 0 of @s to @start_unix_ms (Unix ms),
 * said to come from @clock (`--now`): the creation times a snapshot gave its
 * objects stay the same wall-clock times.
 */
void scn_set_clock(struct scenario *s, int64_t start_unix_ms, enum scn_clock clock);

/*
 * scn_resume_clock() - puts the times of @s's Scenario document on the
 * clock of the run a snapshot of the simulator came from.  With an origin
 * (has_origin) at or before start_unix_ms the run is resumed: resumed_ms =
 * start_unix_ms - origin_unix_ms, and every time the Scenario document
 * gives as ms since the start (events, the windows and times of
 * spec.models, the series' sample positions) is moved to the same
 * original-clock instant on this run's clock (minus resumed_ms); an event at
 * or before this run's 0 is done (its effects are in the snapshot), the
 * others fire when they would have in the uninterrupted run.  The horizon
 * (spec.horizon) ends where it ended: horizon_ms is what is left of it, at
 * least 1 ms.  Without an origin, or one after start_unix_ms, nothing is
 * moved (resumed false).  scn_load() calls it once the clock is known and
 * scn_set_clock() after moving the clock; it moves by the difference to
 * what it applied before, so calling it again is harmless.  Cannot fail.
 */
void scn_resume_clock(struct scenario *s);

/*
 * scn_set_horizon() - the horizon of @s set to @horizon_ms (> 0) on the
 * Scenario's clock, as spec.horizon gives it (`--horizon`): a resumed run
 * ends at that instant of the original run's clock, horizon_ms is what is
 * left of it (at least 1 ms, as scn_resume_clock() says).  Cannot fail.
 */
void scn_set_horizon(struct scenario *s, int64_t horizon_ms);

/*
 * scn_job_start() - the untruncated status.startTime a snapshot gave Job
 * @ns/@name (SCN_JOB_START_ANNOTATION) into *@unix_ms.
 * Returns: true when it gave one.
 */
bool scn_job_start(const struct scenario *s, const char *ns, const char *name, int64_t *unix_ms);

/*
 * scn_models_shift() - moves every time of @m (git remotes' unreachable
 * windows, the StageSet world's windows and times) by @delta_ms; a window
 * open at either end stays open there.  For spec.models read again (a
 * variant's) in a resumed run: scn_models_shift(m, -s->resumed_ms).
 */
void scn_models_shift(struct scn_models *m, int64_t delta_ms);

struct scenario {
	char *name;                  /* metadata.name, or the first input's base name */
	bool has_scenario_doc;       /* a Scenario document was read */
	const char *scenario_file;   /* borrowed from files; NULL without a Scenario document */
	struct val_mark scenario_mark; /* where the Scenario document starts in scenario_file */
	uint64_t seed;               /* spec.seed */
	int64_t horizon_ms;          /* spec.horizon, > 0 */
	int64_t start_unix_ms;       /* wall-clock time of simulated time 0 (clock says whence) */
	enum scn_clock clock;        /* where start_unix_ms comes from */
	int64_t api_latency_ms;      /* spec.api.latency, >= 0 */
	int64_t reconcile_ms;        /* spec.api.reconcileDuration, >= 0 */
	uint64_t event_budget;       /* spec.limits.eventBudget, > 0; 0: by the objects (above) */
	uint64_t events_per_instant; /* spec.limits.eventsPerInstant; 0 = runtime default */
	uint64_t run_events_limit;   /* `--limit run-events` of the load, which caps the budget
				      * (an eventBudget above it is a load error); 0: none */
	struct obj **objs;           /* owned array of owned objects */
	size_t nobjs;
	/*
	 * The run a snapshot of the simulator came from (SCN_ORIGIN_ANNOTATION):
	 * has_origin, its simulated 0; resumed when this run continues it
	 * (scn_resume_clock()), resumed_ms the original-clock ms of this run's 0
	 * (0 when not resumed).
	 */
	bool has_origin;
	int64_t origin_unix_ms;
	bool resumed;
	int64_t resumed_ms;
	int64_t horizon_cut_ms;      /* what scn_resume_clock() took off horizon_ms */
	/* When that snapshot was taken (SCN_TAKEN_ANNOTATION), Unix ms. */
	bool has_taken;
	int64_t taken_unix_ms;
	/*
	 * The Scenario and seed of that run (SCN_SCENARIO_ANNOTATION, owned,
	 * NULL when absent; SCN_SEED_ANNOTATION), and the first object that
	 * said them or an origin (its file borrowed from files).  Without a
	 * Scenario document, seed is run_seed when the snapshot names one.
	 */
	char *run_scenario;
	bool has_run_seed;
	uint64_t run_seed;
	const char *run_file;
	struct val_mark run_mark;
	/*
	 * The latest time the cluster wrote into the inputs (as the clock
	 * reads a kubectl snapshot, above): Unix ms, and where it is: the
	 * object and field ("Job \"shop/plan-1\" status.startTime", owned),
	 * its file (borrowed from files) and position.  For
	 * scn_warn_later_times().
	 */
	bool has_latest;
	int64_t latest_unix_ms;
	char *latest_what;
	const char *latest_file;
	struct val_mark latest_mark;
	/* Modelled sources the snapshot carries (SCN_SOURCE_ANNOTATION), in input order. */
	struct scn_source_seed *source_seeds;
	size_t nsource_seeds;
	/* Jobs' untruncated start times (SCN_JOB_START_ANNOTATION), in input order. */
	struct scn_job_start *job_starts;
	size_t njob_starts;
	/* Jittered requeues drawn per StageSet (SCN_DRAWS_ANNOTATION), in input order. */
	struct scn_draw_count *requeue_draws;
	size_t nrequeue_draws;
	/* StageInventory items per StageSet (SCN_INVENTORY_ANNOTATION), in input order, each object's together. */
	struct scn_inventory_shard *shards;
	size_t nshards;
	/* Model events armed at the snapshot (SCN_ARMED_ANNOTATION), in the order they fired. */
	struct scn_armed *armed;
	size_t narmed;
	/* Work queues a snapshot restores: entries by controller, then order. */
	bool queue_restored[SCN_NQUEUE_CONTROLLERS];
	struct scn_queue_entry *queue;
	size_t nqueue;
	/* The RefWatcher's registry a snapshot restores (SCN_STATE_PREFIX), in load order. */
	struct scn_refwatcher_entry *refwatcher;
	size_t nrefwatcher;
	/* The observer's history a snapshot carries (SCN_OBSERVER_STATE), in load order. */
	struct scn_observer_state *observer;
	size_t nobserver;
	struct scn_event *events;    /* owned array: the events that write objects */
	size_t nevents;
	struct scn_mevent *mevents;  /* owned array: the model events, in file order */
	size_t nmevents;
	struct scn_models models;    /* spec.models with defaults */
	struct scn_fevent *fevents;  /* owned array: the fleet events (publish, regress), in file order */
	size_t nfevents;
	struct scn_series *series;   /* owned array: spec.metrics, in file order */
	size_t nseries;
	struct scn_fleet fleet;      /* spec.fleet */
	size_t ngenerated;           /* objects spec.generate made: the last ngenerated of objs */
	char **ignored;              /* owned: documents accepted but not simulated, as
				      * `Kind "ns/name" (apiVersion)`, in input order */
	size_t nignored;
	size_t nrefused;             /* manifests refused at load (man_set.nrefused) */
	/*
	 * The Workspace manifests refused at load, as they claimed to be (their
	 * identity, labels and project; owned): a rule about what would select
	 * them stays silent, as their own errors say why they are missing.
	 */
	struct man_rejected *refused_ws;
	size_t nrefused_ws;
	/*
	 * StageSet manifests refused at load (inputs, apply payloads, spec.generate
	 * renders): what they held is unknown, so a rule that no StageSet matches
	 * a selector stays silent while there is one.
	 */
	size_t nrefused_ss;
	char **files;                /* every file read, as displayed in diagnostics; owned */
	size_t nfiles;
	/*
	 * spec.expect as written (owned copy with its marks), NULL when absent;
	 * sim/plan/expect.h parses it.  expect_file borrows from files.
	 */
	struct val *expect;
	const char *expect_file;
	/*
	 * spec.variants (a list), spec.sweep (a map) and spec.models as written
	 * (owned copies with their marks, in scenario_file), NULL when absent;
	 * sim/plan/variant.h and sim/plan/sweep.h read them.
	 */
	struct val *variants;
	struct val *sweep;
	struct val *models_raw;
};

/*
 * scn_init() - an empty scenario holding the defaults (name NULL, no objects,
 * no events).  Cannot fail.
 */
void scn_init(struct scenario *s);

/*
 * scn_load() - read the inputs into @out.
 * @paths:  @npaths file or directory names, as the user gave them (they
 *          appear in diagnostics and in out->files, joined with "/" to the
 *          names found in directories and includes).
 * @out:    filled by this call (previous content ignored, not freed); release
 *          with scn_release() whatever the return value.
 * @d:      every error, warning and note found is appended.
 * Returns: 0 when no error was found (warnings may have been added), -1
 *          otherwise; on -1 @out holds what could be loaded and should only
 *          be released.
 * Errors:  unreadable files and directories, YAML and manifest problems,
 *          Scenario document problems, events naming unknown objects; never
 *          aborts except on out-of-memory.
 */
int scn_load(const char *const *paths, size_t npaths, struct scenario *out, struct diag *d);

/*
 * scn_load_static() - scn_load() for static checks (lint): inputs without a
 * Scenario document are not held to what only a simulation needs (a series
 * in spec.metrics for every prometheus gate); everything else, including
 * what the API server would refuse, is checked as scn_load() checks it.
 * Same parameters, returns and errors as scn_load().
 */
int scn_load_static(const char *const *paths, size_t npaths, struct scenario *out,
		    struct diag *d);

/*
 * scn_load_lim() / scn_load_static_lim() - scn_load() and scn_load_static()
 * within the bounds @lim (borrowed; NULL: the defaults of sim/base/limits.h):
 * input bytes, files, include scanning, documents, alias nodes, series
 * samples and generated objects, each counted over all the inputs.  A bound
 * exceeded is an error naming it (see docs/limits.md).
 */
int scn_load_lim(const char *const *paths, size_t npaths, const struct limits *lim,
		 struct scenario *out, struct diag *d);
int scn_load_static_lim(const char *const *paths, size_t npaths, const struct limits *lim,
			struct scenario *out, struct diag *d);

/*
 * scn_is_stageset() - whether @o (may be NULL) is a StageSet of the
 * stages.metio.wtf group, as admission reads one.  Cannot fail.
 */
bool scn_is_stageset(const struct obj *o);

/*
 * scn_stagesets() - the StageSets a run of @s may hold: those of its inputs,
 * then those of its `apply` events, in that order, with their count into @n.
 * The objects are borrowed from @s; the array is new (the caller frees it, a
 * NULL-ended array of at most inputs + events).  Loading and lint read the
 * same list.  Cannot fail (aborts on OOM).
 */
const struct obj **scn_stagesets(const struct scenario *s, size_t *n);

/*
 * scn_refuse_nothing_to_simulate() - the commands' check that scenario @s
 * (loaded without errors) holds something to simulate.  Inputs with no
 * object at all (an empty List, as `kubectl get` prints when it finds no
 * resources; a Scenario with neither objects nor `apply` events) would run
 * a rollout that never starts, and `check` would pass on nothing: an error
 * into @d says so.  Objects of which none is a Project, Rollout or
 * Workspace (magosproject.io), FleetRollout or StageSet (stages.metio.wtf),
 * among the inputs or `apply` events (only Namespaces or Secrets, say),
 * get a warning.  Either is placed at the Scenario document, else at the
 * first file's 1:1.  The loader itself accepts both (its callers may read
 * models alone).
 * Returns: 0, or -1 after adding the error.
 */
int scn_refuse_nothing_to_simulate(const struct scenario *s, struct diag *d);

/*
 * scn_models_parse() - reads a spec.models map @v (borrowed; NULL: none)
 * into @out with every default filled in, as scn_load() does.
 * @file, @path: where @v sits, for diagnostics ("spec.models",
 *        "spec.variants[0].models").
 * Returns: 0, or -1 with the problems in @d; release @out with
 *          scn_models_release() whatever the return value.
 */
int scn_models_parse(const struct val *v, const char *file, const char *path,
		     struct scn_models *out, struct diag *d);

/* scn_models_release() - frees what @m owns (not @m); accepts NULL. */
void scn_models_release(struct scn_models *m);

/*
 * scn_event_budget() - the events one run of @s may take: its
 * spec.limits.eventBudget, or without one max(SCN_MIN_EVENT_BUDGET,
 * SCN_EVENTS_PER_OBJECT × the objects of @s); either at most
 * @s->run_events_limit when that is set (scn_event_budget_capped() says
 * whether it cut the budget).  Never 0.
 */
uint64_t scn_event_budget(const struct scenario *s);

/*
 * scn_event_budget_capped() - true when `--limit run-events`
 * (@s->run_events_limit), not the scenario, sets scn_event_budget(@s): the
 * budget by the objects is larger than the limit.
 */
bool scn_event_budget_capped(const struct scenario *s);

/* scn_release() - frees everything @s owns (not @s); accepts NULL. */
void scn_release(struct scenario *s);

/* scn_event_type_name() - "apply", "delete", "annotate", "label", "patch" or "status". */
const char *scn_event_type_name(enum scn_event_type t);

/*
 * scn_mevent_type_name() - "commit", "failNext", "succeedNext", "violate",
 * "reconcileRequest" or "approve" (the action key).
 */
const char *scn_mevent_type_name(enum scn_mevent_type t);

/* scn_job_type_name() - "plan" or "apply". */
const char *scn_job_type_name(enum scn_job_type t);

/*
 * scn_canonical_ref() - the branch or tag name @ref stands for on a remote
 * whose HEAD is branch @head: "refs/heads/x" and "refs/tags/x" give "x", ""
 * and "HEAD" give @head, anything else is itself.  Returns a borrowed pointer
 * into @ref or @head.  (The RefWatcher tries refs/heads/<ref>, refs/tags/<ref>,
 * <ref>, then HEAD for "" — on a simulated remote where every name exists
 * these are the same refs.)
 */
const char *scn_canonical_ref(const char *ref, const char *head);

/*
 * scn_git_head() - the HEAD branch of the repository @url in @m
 * (spec.models.git.repositories[].head), or SCN_DEFAULT_GIT_HEAD.  Borrowed.
 */
const char *scn_git_head(const struct scn_models *m, const char *url);

/* scn_fevent_type_name() - "publish", "regress", "drift" or "inventory" (the action key). */
const char *scn_fevent_type_name(enum scn_fevent_type t);

/*
 * scn_find_series() - the series of spec.metrics that a gate with this
 * prometheus @query and @address reads: the entry whose query equals @query
 * byte for byte and whose address equals @address; failing that, the entry
 * with that query and no address.  Borrowed from @s, or NULL when none.
 * @address may be NULL (then only an entry without address matches).
 */
const struct scn_series *scn_find_series(const struct scenario *s, const char *query,
					 const char *address);

/*
 * scn_job_model_for() - the Job model of type @t for a Workspace with
 * @labels: field by field, the first rule of spec.models.jobs.rules whose
 * selector matches and that sets the field, else the top-level value.
 * @dur receives the duration dist in ms (borrowed from @m), @pfail the
 * failure probability.  Cost: O(rules × selector).
 */
void scn_job_model_for(const struct scn_models *m, enum scn_job_type t,
		       const struct obj_strmap *labels, const struct dist **dur, double *pfail);

/*
 * scn_stageset_model_for() - the member model of a StageSet with @labels:
 * field by field, the first rule of spec.models.stagesets.rules whose
 * selector matches and that sets the field, else the top-level value, else
 * the default.  (The fields: adoption.duration, adoption.failureProbability,
 * regression.probability, .duration, .after, .versions.)
 * @out: filled with pointers borrowed from @m (valid until @m is released).
 * Cost: O(rules × selector).
 */
void scn_stageset_model_for(const struct scn_models *m, const struct obj_strmap *labels,
			    struct scn_stageset_model *out);

/*
 * scn_expand_pattern() - a spec.generate name pattern with index @i:
 * `{i}` is the index in decimal, `{i:0N}` (N = 1..9) the index zero-padded
 * to N digits, `{{` and `}}` a literal brace; other text is copied.
 * @err, @errlen: the reason when the pattern is malformed (may be NULL).
 * Returns: a new string (caller frees), or NULL for a malformed pattern (an
 *          unknown `{...}` placeholder or a lone `{` or `}`).
 */
char *scn_expand_pattern(const char *pattern, uint64_t i, char *err, size_t errlen);

/*
 * scn_is_manifest_name() - whether a directory entry named @name is one of
 * the directory's inputs: `*.yaml`, `*.yml` or `*.json`, not starting with '.'.
 * Errors: cannot fail.
 */
bool scn_is_manifest_name(const char *name);

#endif
