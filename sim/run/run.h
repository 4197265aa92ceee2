#ifndef MAGOS_SIM_RUN_H
#define MAGOS_SIM_RUN_H

/*
 * One simulation run of a loaded scenario: builds the world (store,
 * controllers, timeline), loads the scenario's objects at time 0 with their
 * given status, schedules its scripted events, runs the clock to quiescence,
 * the horizon or a bound, and reads the outcome off the timeline.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sim/world/des.h"
#include "sim/wire/fleet_glue.h"
#include "sim/observe/fleetobs.h"
#include "sim/wire/magos_rc.h"
#include "sim/wire/magos_wc.h"
#include "sim/models/models.h"
#include "sim/observe/observe.h"
#include "sim/observe/outcome.h"
#include "sim/load/scenario.h"

/* Command-line overrides of the scenario's settings. */
struct run_opts {
	bool seed_set;
	uint64_t seed;
	bool horizon_set;
	int64_t horizon_ms; /* > 0 */
	/* false (default): end the run when the change completes (sim/observe/outcome.h);
	 * true: go on to the horizon (drift runs, retries after completion). */
	bool until_horizon;
	/*
	 * run_to_set: a completed change ends the run no earlier than
	 * run_to_ms (>= 0), after everything due then, probes included: the
	 * world at that time is what the controllers did by then (--at,
	 * --snapshot).  Without until_horizon only.
	 */
	bool run_to_set;
	int64_t run_to_ms;
	/*
	 * Probes: @probe(@probe_ctx, i, world) runs at simulated time
	 * probe_ms[i] (ms, >= 0), after everything else due at that instant, so
	 * it sees the state the cluster had then (object-state expectations,
	 * snapshots).  A probe later than the end of the run never runs; the
	 * caller reads the final state from run_result.world instead.  The
	 * callback must only read the world.  nprobes = 0: none.
	 */
	const int64_t *probe_ms;
	size_t nprobes;
	void (*probe)(void *probe_ctx, size_t i, struct des *w);
	void *probe_ctx;
	/*
	 * Progress of this run (des_limits.tick): called on the calling thread
	 * every DES_TICK_EVENTS events.  Trials must leave it NULL (their runs
	 * are on worker threads).
	 */
	void (*tick)(void *tick_ctx, int64_t now_ms, uint64_t events);
	void *tick_ctx;
};

struct run_result {
	struct des *world;       /* owned: store, timeline, controllers after the run */
	struct obs *obs;         /* owned: per-Rollout steps, halts, blast radius */
	struct mrc *mrc;         /* owned: Rollout and Project controller adapters */
	struct mwc *mwc;         /* owned: Workspace controller and RefWatcher adapters */
	struct mdl *models;      /* owned: Job runner, git remotes, scripted model events */
	struct fleet_glue *fleet;/* owned: FleetRollout and StageSet controllers, StageSet world */
	struct fo *fobs;         /* owned: per-wave fleet report, blast radius, exposure */
	uint64_t seed;           /* effective seed */
	int64_t horizon_ms;      /* effective horizon, ms */
	enum des_stop stop;      /* why the clock stopped */
	int64_t end_ms;          /* simulated time the run ended at */
	struct oc_summary summary;
};

/*
 * run_scenario() - runs @s once.
 * @s:    loaded scenario (borrowed; objects and events are copied into the world).
 * @o:    overrides, or NULL.
 * @r:    filled in; release with run_result_release() whatever the return.
 * Returns: 0.  A scripted event that cannot apply (its object is gone, say)
 *          does not fail the run: it becomes a warning notice on the timeline
 *          naming the event's file:line:col, as the cluster would just refuse
 *          that one request.
 * Errors:  cannot fail otherwise (aborts on OOM).
 */
int run_scenario(const struct scenario *s, const struct run_opts *o, struct run_result *r);

/*
 * run_snapshot_state() - adds to @list, a snapshot of @w now (kg_snapshot()),
 * what the run's observer knows of the history before now that the objects
 * do not show, in annotation SCN_STATE_PREFIX SCN_OBSERVER_STATE on each
 * Workspace and Rollout it knows something of (sim/load/scenario.h): the
 * observer's first instants (obs_state()) and the revisions told at the end
 * of a run (mrev_snap_state()), so that the run resumed from @list tells
 * the notices this run would.  @r: the run in progress (its observer);
 * @s: its scenario.  Call from a probe, during the run.  Cannot fail.
 */
struct val;
void run_snapshot_state(struct val *list, const struct run_result *r, struct des *w,
			const struct scenario *s);

/* run_result_release() - frees the world and the observer.  Accepts a zeroed @r. */
void run_result_release(struct run_result *r);

#endif
