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
 * (sws_source_get(), sws_source_list()): Ready, with an artifact whose
 * revision changes at each publish that reaches a StageSet referencing it,
 * and at each of the source's own updates (spec.models.sources[].updates:
 * new files from then on, the version of the revision before).
 *
 * Publish.  A `publish` event (scenario.fevents) reaches a StageSet when its
 * selectors match the StageSet's labels (and its Namespace's) as they were
 * at the event's time; a StageSet first seen later is reached from its first
 * sighting on, with its labels then.  A reached source gets a new revision
 * at max(event time, first sighting) that carries the published version:
 * the fromArtifact version file holds it, the fromObject label or field
 * reads it.  A StageSet whose spec.version is an inline value is published
 * to as a GitOps delivery does it: the wire edits spec.version.value to
 * sws_offered_version() (a generation bump attributed to "source") and the
 * stage sources get their new revision as above.
 *
 * Stages.  swst_apply_stage() stands for fetch → decrypt → postBuild →
 * build → image gate → conflict policy → apply → record inventory: a drawn
 * duration and failure.  Each stage renders one workload object,
 * Deployment "<stageset>-<stage>" in the StageSet's namespace, and the
 * objects with immutable fields apply.conflicts names, whose conflicts the
 * controller's conflict handling resolves.  The first
 * apply of a revision (a revision other than the one the stage last
 * applied) starts a rollout: its objects become kstatus-Current after a
 * drawn delay, or Failed after that delay (probability), or never
 * (probability); the ready-check expressions (CEL, not evaluated) hold a
 * drawn delay after that, or fail, or never hold, the same way.  A retry of
 * the same revision finds the rollout where it stands; a re-verify of a
 * ready revision is ready at once.  swst_wait_stage() and swst_ready_exprs()
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
 *   "stageset/<ns>/<name>/<stage>/rev#<k>/conflict#<i>"  i = 1, 2, ... the
 *       apply.conflicts entry: whether revision k changes its immutable field
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
	/*
	 * A resumed run's modelled sources as its snapshot showed them
	 * (scenario.source_seeds): such a source starts at that revision
	 * instead of its initial one, and publishes move it on from there.
	 */
	const struct scn_source_seed *seeds;
	size_t nseeds;
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


#endif
