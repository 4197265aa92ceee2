#ifndef MAGOS_SIM_STAGESET_RC_H
#define MAGOS_SIM_STAGESET_RC_H

/*
 * The StageSet controller of stageset-controller wired into a simulated
 * world: controller-runtime set-up (spec ../shared/specs/stageset-controller.md
 * §2.1) around the pure pass ssc_reconcile() (engine/stageset_controller.h),
 * with the world a pass talks to (struct ssc_env) answered by the store and
 * the StageSet world model (sim/models/stageset_world.h).
 *
 *   stageset-controller  SSC_CONCURRENT_RECONCILES workers on the priority
 *                        queue (sim/world/controllers.h);
 *     W1  For(StageSet): creations and deletions, and updates that pass
 *         ssc_watch_update() (generation, requestedAt, reconcile-stage,
 *         approved-version, rollback-to, promote);
 *     W2  StageInventory: a pass that creates, changes or deletes a stage's
 *         inventory shard wakes its StageSet when the write is delivered
 *         (after the API latency).  Shards are kept here, not in the store:
 *         one per stage, holding its position and entry count;
 *     W3  every StageSet event wakes the StageSets of its namespace whose
 *         dependsOn names it (an index by dependency, checked against the
 *         dependent's current spec);
 *     W4  StageLedger: a ledger write wakes the StageSet of the same name;
 *     W5  ExternalArtifact: StageSets of its namespace with a stage sourceRef
 *         naming it (kind empty or ExternalArtifact; the ref's namespace is
 *         not compared, as upstream) or a producer ref its spec.sourceRef
 *         points back at (kind, name, API group);
 *     W6  GitRepository, OCIRepository, Bucket (every producer kind counts
 *         as watched): StageSets of its namespace with a stage ref of that
 *         kind and name.
 *     W5 and W6 read an index by source; a source held by the store wakes
 *     them through its watch events, a modelled one (sws_source_get()) when
 *     sws_source_next_change() says it shows something else, after the API
 *     latency.  migrationsSourceRef is mapped by neither (upstream).
 *
 * A pass (SC:Reconcile): the StageSet from the store; its spec parsed once
 * per (uid, generation) and its status once per resourceVersion (a status
 * tree shared by the next version is not parsed again); ssc_reconcile() at
 * the wall clock of the pass start.  Everything it asks the world is
 * answered as of that start (the store) or of the pass clock (the models).
 * The worker is then held for the controller's fixed duration
 * (spec.api.reconcileDuration) plus the pass's elapsed_ms, and at the end of
 * the hold, in this order: the finalizer update, the status write (when the
 * pass changed it: a JSON merge patch of the difference to the status the
 * pass read, so annotations and other writes made meanwhile stay), the
 * StageLedger write, the inventory shards, the pass's Kubernetes events as
 * timeline notices (`<Normal|Warning> <reason>: <note>`, info, the StageSet
 * as related object), its notes on surprising behaviours (info notices, each
 * quirk once per run), and the requeue: AFTER_JITTERED draws
 * ×(1 + 0.05·(2U−1)) from the PCG32 stream
 * "stageset/<ns>/<name>/requeue#<k>" (k = 1, 2, ... that StageSet's jittered
 * requeues).  Every write is attributed to "reconcile stageset-controller
 * <ns>/<name>".
 *
 * Publishes (sim/models/stageset_world.h "Publish"): at each publish event,
 * and at a StageSet's first sighting for the publishes before it, a StageSet
 * with an inline spec.version.value that the publish reaches gets its value
 * edited to sws_offered_version() (a spec update, cause "source").  The
 * source's new revision wakes every StageSet whose stages reference it
 * through the source watch (W5, W6), an inline version too: so a publish of
 * the value it already has, which edits nothing, still brings a pass.
 *
 * Deviations (engine/PROVENANCE.md, sim/wire/stageset_rc): reads through
 * the API reader (dependencies, sources) see the store as of the pass start,
 * not the live state during a long pass; a pass's reads happen at its start
 * and its writes at its end, spec.api.reconcileDuration included in the
 * hold; StageInventory shards are not objects of the store; the
 * substitution digest covers postBuild.substitute only (the ConfigMaps and
 * Secrets of substituteFrom do not change during a run).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/stageset_controller.h"
#include "sim/models/stageset_world.h"
#include "sim/world/controllers.h"
#include "sim/world/des.h"

/* The controller's name (causes, notices) and the upstream reporting controller. */
#define SSRC_CONTROLLER "stageset-controller"

struct ssrc_params {
	int64_t start_unix_ms;                   /* wall-clock ms of simulated time 0 */
	struct sw_world *world;                  /* the StageSet world (borrowed, outlives the controller) */
	const char *const *allowed_action_hosts; /* --allowed-action-hosts globs (copied); NULL when 0 */
	size_t nallowed_action_hosts;            /* 0: every host allowed */
	struct ssc_options opt;                  /* the controller's flags (ssc_options_default()) */
	uint64_t seed;                           /* scenario seed (requeue jitter streams) */
	uint64_t trial;                          /* Monte Carlo trial index */
	/*
	 * Scheduled deletions of StageSets (a scripted delete event): the wait
	 * of a pass sees the deletionTimestamp at its 5 s poll.  @deletion_keys
	 * "ns/name" and @deletion_ms (ms since scenario start) in pairs; borrowed
	 * for the call (copied).
	 */
	const char *const *deletion_keys;
	const int64_t *deletion_ms;
	size_t ndeletions;
	/*
	 * The scenario's fleet events (the world's, sw_setup.fevents): each
	 * publish is delivered to inline versions at its time.  Borrowed, must
	 * outlive the controller.
	 */
	const struct scn_fevent *fevents;
	size_t nfevents;
	/*
	 * A resumed run's: the jittered requeues each StageSet had drawn
	 * (scenario.requeue_draws); its next draw is requeue#(n + 1).  Borrowed
	 * for the call to ssrc_register().
	 */
	const struct scn_draw_count *requeue_draws;
	size_t nrequeue_draws;
	/*
	 * A resumed run's: the StageInventory shards the controller had written
	 * (scenario.shards), which a StageSet seen at the start has in place
	 * before those its status shows.  Borrowed, must outlive the controller.
	 */
	const struct scn_inventory_shard *shards;
	size_t nshards;
	/*
	 * true for a run that looks at its world mid-run (--at, --snapshot,
	 * object-state expectations): each pass keeps what revision each
	 * stage ran when it began, so that ssrc_inventory_text() can say it
	 * for a pass in flight; false spares the copies.
	 */
	bool keep_pass_starts;
};

struct ssrc;

/*
 * ssrc_register() - create the StageSet controller in @w with its watches,
 * and tell the world about the StageSets already stored.  Call after the
 * objects are loaded and before des_run() (they then reach the controller
 * as its informer's initial list).
 * @p: parameters (copied; the world is borrowed).
 * Returns: a new handle; free it with ssrc_free() AFTER des_free(@w).
 * Errors:  cannot fail (aborts on OOM).
 */
struct ssrc *ssrc_register(struct des *w, const struct ssrc_params *p);

/* ssrc_free() - frees the adapter's state.  Accepts NULL. */
void ssrc_free(struct ssrc *r);

/* ssrc_ctl() - the controller (borrowed, lives as long as the world). */
struct ctl *ssrc_ctl(const struct ssrc *r);

/* ssrc_world() - the world given at registration (borrowed). */
struct sw_world *ssrc_world(const struct ssrc *r);

/*
 * ssrc_requeue_draws() - how many jittered requeues the controller has drawn
 * for StageSet @ns/@name (its stream's count, requeue#1 ... #n): what a
 * snapshot carries (SCN_DRAWS_ANNOTATION).  0 for one never requeued so.
 */
uint32_t ssrc_requeue_draws(const struct ssrc *r, const char *ns, const char *name);

/*
 * ssrc_inventory_text() - the StageInventory shards the controller has
 * written for StageSet @ns/@name, "<stage>=<entries>" joined by ",", in the
 * order it wrote them, ":<id>;..." after a shard that lists more than the
 * workload, then the renders, live objects and survivors of
 * stageset_rc_inv.h ssri_text(): what a snapshot carries
 * (SCN_INVENTORY_ANNOTATION).
 * Returns: a new string (caller frees), or NULL when it has none.
 */
char *ssrc_inventory_text(const struct ssrc *r, const char *ns, const char *name);

/*
 * ssrc_reuse_passes - whether a pass whose outcome is bound to be that of
 * the pass before is taken from it instead of being run again (default
 * true): a StageSet held before its stages, or steady in every stage, whose
 * object, sources and world have not changed since (see stageset_rc.c
 * memo_record()).  Nothing a run reports depends on it; false runs every
 * pass, so a test can compare both.  Set it before the controller is
 * registered.
 */
extern bool ssrc_reuse_passes;

/* ---- what the passes did, for observers (sim/observe/fleetobs) ---------- */

/* How an adoption attempt ended. */
enum ssrc_outcome {
	SSRC_IN_FLIGHT,   /* not yet (the run ended first) */
	SSRC_SUCCEEDED,   /* the pass adopted the version (Ready True, status.version) */
	SSRC_FAILED,      /* a stage failed (or a gate denied, a claim clash, a prune error) */
	SSRC_HELD,        /* the pass wrote a hold: a promotion gate, a stage budget, a parked
			   * revision, a gate it could not evaluate */
	SSRC_SUPERSEDED,  /* the objects were still rolling out (StageProgressing) and the
			   * next pass went elsewhere (another version, or held before the stages) */
	SSRC_ABANDONED,   /* the StageSet was deleted (mid-verify, or afterwards) */
};

/* ssrc_outcome_name() - "in-flight", "succeeded", "failed", "held", "superseded", "abandoned". */
const char *ssrc_outcome_name(enum ssrc_outcome o);

/*
 * One adoption attempt: the passes of one StageSet that got past the
 * approval gate towards a version other than its status.version, from the
 * start of the first to the end of the one that ended it (its status write).
 * A pass that ends StageProgressing leaves the attempt open for the next
 * pass towards the same version.  Times are ms since scenario start.
 */
struct ssrc_attempt {
	const char *version;   /* the version (owned by the adapter) */
	const char *from;      /* status.version at the start, "" for none (owned) */
	bool baseline, downgrade;
	bool directed;         /* the version is the stages.metio.wtf/rollback-to annotation's */
	uint32_t passes;       /* passes it took, >= 1 */
	int64_t start_ms;
	int64_t end_ms;        /* -1 while in flight */
	enum ssrc_outcome outcome;
};

/*
 * The inventory shard of a stage that left a StageSet's spec: its objects
 * stay in the cluster until a pass prunes them, which only a full success
 * does.
 */
struct ssrc_orphan {
	const char *stage;   /* owned by the adapter */
	int64_t removed_ms;  /* the end of the first pass that ran without the stage, ms since scenario start */
	int64_t pruned_ms;   /* the end of the pass that deleted the shard, -1 while it is kept */
};

/*
 * An object a stage applied and then dropped from its render, which a pass
 * that ended short of a full success left in the cluster after it had
 * rewritten the stage's StageInventory without it (R-20, §5 Q-28): no later
 * prune lists it.
 */
struct ssrc_survivor {
	const char *stage;   /* owned by the adapter */
	const char *id;      /* its StageInventory entry ID ("<group>_<Kind>_<ns>_<name>"), owned */
	int64_t dropped_ms;  /* the end of that pass, ms since scenario start */
	const char *reason;  /* how that pass ended (ssc_exit_name(), static) */
	int64_t deleted_ms;  /* when a later pass deleted it after all (negative: before a resumed
			      * run's start), SSRC_STILL_LIVE while it lives */
};

/* ssrc_survivor.deleted_ms of one no pass deleted. */
#define SSRC_STILL_LIVE INT64_MIN

/* What the adapter recorded about one StageSet. */
struct ssrc_member_stat {
	const char *ns, *name;                /* owned by the adapter */
	const struct ssrc_attempt *attempts;  /* in start order */
	size_t nattempts;
	uint32_t passes;                      /* reconciles run */
	int64_t last_pass_ms;                 /* when the last of them started, ms since scenario
					       * start; meaningful when passes > 0 */
	bool last_no_requeue;                 /* the last one ended without an error and asked for
					       * no requeue: only an event runs the next */
	/*
	 * Verifies of a stage (the kstatus wait, then the ready-check expression
	 * poll, each given the stage's whole timeout: StageSet spec §5 Q-2) that
	 * took longer than that timeout, counted; the longest one's length (ms),
	 * start (ms since scenario start), timeout (ms), stage (owned by the
	 * adapter) and whether it ended ready.  Meaningful when long_verifies > 0.
	 */
	uint32_t long_verifies;
	int64_t long_verify_ms, long_verify_at_ms, long_verify_timeout_ms;
	const char *long_verify_stage;
	bool long_verify_ready;
	/*
	 * Of those, the passes that ended held for approval (AwaitingApproval,
	 * StageSet spec R-14; each requeued after 1m): their count, the worker
	 * time they held in all (ms: the controller's fixed duration plus the
	 * pass's own), and the start of the first and the last (ms, -1 none).
	 */
	uint32_t approval_passes;
	int64_t approval_busy_ms, approval_first_ms, approval_last_ms;
	/*
	 * The inventory shards of stages that left the spec (StageSet spec R-20,
	 * §5 Q-28), in the order their stages left: meaningful when norphans > 0.
	 */
	const struct ssrc_orphan *orphans;
	size_t norphans;
	/* Objects dropped from a kept stage's render that no shard lists any more (§5 Q-28), in the order found. */
	const struct ssrc_survivor *survivors;
	size_t nsurvivors;
	/*
	 * Passes that failed at the version plan with a transient error,
	 * which writes nothing (§5 Q-23): their count, the start of the first
	 * and the last (ms, -1 none) and the first one's error (owned by the
	 * adapter).
	 */
	uint32_t silent_errors;
	int64_t silent_first_ms, silent_last_ms;
	const char *silent_error;
	/*
	 * The same for the passes that failed reading the StageLedger or
	 * the StageInventory: an API error there returns an error
	 * without writing status either (spec.models.stagesets.ledgerErrors).
	 */
	uint32_t read_errors;
	int64_t read_first_ms, read_last_ms;
	const char *read_error;
};

/*
 * ssrc_members() - every StageSet reconciled or seen, in the order first
 * seen.  @out: receives a borrowed array, valid until the next event of the
 * world or ssrc_free().  Returns the count.
 */
size_t ssrc_members(const struct ssrc *r, const struct ssrc_member_stat **out);

/* ssrc_busy_peak() - the most passes that held a worker at once. */
int ssrc_busy_peak(const struct ssrc *r);

/*
 * ssrc_object_rows() - the objects StageSets applied besides their
 * workloads (spec.models.sources[].objects) that are in the cluster now, as
 * rows of SSRC_OBJECT_COLS cells: namespace, "<kind>/<name>" (kind lower
 * case), the StageSet, the stage that applied it, and the stage whose
 * StageInventory lists it ("<none>": none does, §5 Q-28); StageSets in the
 * order first seen, objects in the order applied.
 * Returns: the rows (owned by the caller, each of owned cells), *@n of
 *          them; NULL and 0 when there are none.
 */
#define SSRC_OBJECT_COLS 5
char ***ssrc_object_rows(const struct ssrc *r, size_t *n);

#endif
