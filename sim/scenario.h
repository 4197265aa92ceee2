#ifndef MAGOS_SIM_SCENARIO_H
#define MAGOS_SIM_SCENARIO_H

/*
 * The Scenario: everything one simulation run starts from, loaded from YAML
 * files into plain C structs.
 *
 * Inputs are files or directories.  A directory stands for its `*.yaml` and
 * `*.yml` files (not those whose name starts with '.'), sorted by name in
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
 * admit it (sim/manifest.h: schema defaults, validation, CEL rules; `status`
 * kept as the object's initial state; `kind: List` unpacked).  Two objects
 * with the same kind, namespace and name are an error.
 *
 * All problems found are collected into one `struct diag` (file:line:col);
 * loading goes on after an error where it can, so one run lists them all.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/diag.h"

#define SCN_API_VERSION "magos-sim/v1alpha1"
#define SCN_KIND "Scenario"

/* Defaults, used when the Scenario document omits a key or is absent. */
#define SCN_DEFAULT_SEED 1
#define SCN_DEFAULT_HORIZON_MS (24 * 3600 * 1000LL)       /* 24h */
#define SCN_DEFAULT_START_UNIX_MS 1767225600000LL          /* 2026-01-01T00:00:00Z */
#define SCN_DEFAULT_API_LATENCY_MS 0                      /* write → watch delivery */
#define SCN_DEFAULT_RECONCILE_MS 0                        /* one reconcile's duration */
#define SCN_DEFAULT_EVENT_BUDGET 10000000ULL              /* events per run */
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

/* Which object an event acts on. */
struct scn_target {
	char *api_version; /* owned; as written, or NULL when the event did not say */
	char *kind;        /* owned */
	char *ns;          /* owned; "" for cluster-scoped kinds, "default" when omitted */
	char *name;        /* owned */
};

/*
 * One scripted event.  Invariants: 0 <= at_ms; the fields used by each type
 * are listed below, the others are NULL / empty.
 */
struct scn_event {
	enum scn_event_type type;
	int64_t at_ms;              /* ms since scenario start */
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
};

/*
 * The loaded run.  Invariants: objs hold unique (kind, ns, name) keys and are
 * in input order (files in the order read, documents in file order); events
 * are in file order (the runtime fires equal times in this order); every
 * string is owned unless said otherwise.
 */
struct scenario {
	char *name;                  /* metadata.name, or the first input's base name */
	bool has_scenario_doc;       /* a Scenario document was read */
	const char *scenario_file;   /* borrowed from files; NULL without a Scenario document */
	uint64_t seed;               /* spec.seed */
	int64_t horizon_ms;          /* spec.horizon, > 0 */
	int64_t start_unix_ms;       /* spec.start: wall-clock time of simulated time 0 */
	int64_t api_latency_ms;      /* spec.api.latency, >= 0 */
	int64_t reconcile_ms;        /* spec.api.reconcileDuration, >= 0 */
	uint64_t event_budget;       /* spec.limits.eventBudget, > 0 */
	uint64_t events_per_instant; /* spec.limits.eventsPerInstant; 0 = runtime default */
	struct obj **objs;           /* owned array of owned objects */
	size_t nobjs;
	struct scn_event *events;    /* owned array */
	size_t nevents;
	char **files;                /* every file read, as displayed in diagnostics; owned */
	size_t nfiles;
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

/* scn_release() - frees everything @s owns (not @s); accepts NULL. */
void scn_release(struct scenario *s);

/* scn_event_type_name() - "apply", "delete", "annotate", "label", "patch" or "status". */
const char *scn_event_type_name(enum scn_event_type t);

#endif
