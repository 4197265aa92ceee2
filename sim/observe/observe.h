#ifndef MAGOS_SIM_OBSERVE_H
#define MAGOS_SIM_OBSERVE_H

/*
 * The observer: watches the store during a run and keeps what the reports
 * need about each Magos Rollout beyond the raw timeline — when each step
 * opened and completed, which Workspaces it holds, when each Workspace began
 * and finished planning and applying, the halt and its blast radius.
 *
 * Definitions (they are part of the product, DESIGN §6):
 *  - a step's members are the Workspaces of the Rollout's Project that its
 *    selector matches, with the labels and selectors as they are at the end
 *    of the run;
 *  - a step opens when the Rollout first reports it in progress: phase
 *    `Reconciling`, reason `LevelProgressing`, `currentStep` at the start of
 *    the step's level, message `Executing level [...]` naming the step; a
 *    step of a level opens with the level;
 *  - a step completes when the Rollout first reports a `currentStep` past it
 *    (or `RolloutCompleted`);
 *  - a halt is the first `Failed` phase (StepFailed, NoWorkspacesFound or
 *    ReconcileError, as sim/observe/outcome.h); its step is the one at `currentStep`
 *    then;
 *  - the blast radius of a halt is the Workspaces of the Project that had
 *    begun applying (entered `Applying`) by the time of the halt, out of the
 *    Project's Workspaces then; in a resumed run, those that had before its
 *    start count too (a snapshot's past_* times, or applied_before).
 *
 * Times are simulated ms of the change (watch delivery time less the API
 * latency, which is constant).  No I/O.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct des;

/*
 * OBS_NEVER - a first instant that did not happen.  The *_ms fields of this
 * run use -1 for it (their times are >= 0); the past_* ones, which are before
 * the run's start (a snapshot's history, <= 0), use OBS_NEVER.
 */
#define OBS_NEVER INT64_MIN

struct obs_step {
	char *name;
	int64_t opened_ms;    /* -1 never opened */
	int64_t completed_ms; /* -1 never completed */
	/* before the run (a snapshot's state, SCN_OBSERVER_STATE): ms <= 0, or OBS_NEVER */
	int64_t past_opened_ms, past_completed_ms;
	char **members;       /* Workspace names, sorted */
	size_t nmembers;
};

struct obs_workspace {
	char *ns, *name;
	char *project;            /* spec.projectRef.name at the last change */
	int64_t granted_ms;       /* first execution-allowed=true, -1 none */
	int64_t planning_ms;      /* first entry into Planning, -1 none */
	int64_t applying_ms;      /* first entry into Applying, -1 none */
	int64_t applied_ms;       /* first entry into Applied after applying, -1 none */
	int64_t failed_ms;        /* first entry into Failed or ValidationFailed, -1 none */
	/*
	 * A resumed run's Workspace: the same first instants before the run's
	 * start, ms <= 0, or OBS_NEVER; the fields above count what this run
	 * saw.  obs_first() gives the earliest of the two.  From a snapshot the
	 * simulator wrote, as it carries them (SCN_OBSERVER_STATE); from a
	 * plain one, as its objects tell them (obs_loaded()): the creation of
	 * the plan and apply Jobs it holds, the Ready condition's
	 * lastTransitionTime of an Applied or Failed Workspace (the latest
	 * such instant, the only one a cluster keeps).
	 */
	int64_t past_granted_ms, past_planning_ms, past_applying_ms, past_applied_ms, past_failed_ms;
	/*
	 * Loaded Applied, or Failed in its apply (ApplyFailed), from a plain
	 * snapshot without its apply Job: it had begun applying before the run,
	 * at a time the objects do not tell.
	 */
	bool applied_before;
	/*
	 * plans started (entries into Planning): 1 for a single run; in a
	 * resumed run those before the snapshot too, where it carries them
	 * (SCN_OBSERVER_STATE's runs: upstream's status keeps no count)
	 */
	unsigned runs;
	char *last_phase;         /* phase at the end, NULL none */
	bool exists;              /* still there at the end */
	bool busy_now;            /* granted, or Planning / Applying: a run is under way or due */
	/* The last non-empty status.policyViolations, as "policy: message" strings. */
	char **violations;
	size_t nviolations;
};

struct obs_rollout {
	char *ns, *name, *project;
	struct obs_step *steps;
	size_t nsteps;
	int64_t completed_ms; /* first Applied/RolloutCompleted, -1 none */
	bool halted;
	int64_t halt_ms;
	int halt_step;        /* index, -1 when unknown */
	char *halt_reason, *halt_message;
	char **blast;         /* Workspaces that had begun applying by the halt, sorted */
	size_t nblast;
	size_t blast_total;   /* Workspaces of the Project at the halt */
	bool exists;          /* still there at the end */
	bool done_now;        /* nothing left to do now: Applied/RolloutCompleted, or idle_now */
	bool idle_now;        /* Ready/NoSteps while it has no steps */
	/*
	 * Failed when loaded (obs_loaded()): the halt predates the run, so
	 * halt_ms is 0 (the run's own clock starts after it), halt_step and
	 * the reason come from its status, past_halt_ms says when it was if
	 * the snapshot does, and the blast radius is not known unless
	 * blast_known (nblast 0; blast_total the Project's Workspaces at the
	 * start).
	 */
	bool halted_before_start;
	/*
	 * halted_before_start: when that halt was, ms <= 0, as the snapshot
	 * says it (SCN_OBSERVER_STATE's halted, to the ms; else the Ready
	 * condition's lastTransitionTime: Ready is False only in phase Failed,
	 * so it turned False when the Rollout halted); OBS_NEVER when it does
	 * not say.  obs_halt_at() gives the halt's time either way.
	 */
	int64_t past_halt_ms;
	/*
	 * halted_before_start, with the blast radius of that halt known, in
	 * blast and blast_total: as the snapshot carried it (SCN_OBSERVER_STATE:
	 * blast, blastTotal; the run that halted measured it), or, from a plain
	 * snapshot, as its objects decide it (obs_loaded()).
	 */
	bool blast_known;
	/* When it was created: its first delivery in this run (0 when loaded), or
	 * a snapshot's state (<= 0); OBS_NEVER before it exists. */
	int64_t created_ms;
	/* first Applied/RolloutCompleted before the run (a snapshot's state), or OBS_NEVER */
	int64_t past_completed_ms;
};

/*
 * obs_first() - the earliest of a first instant before the run (@past_ms,
 * OBS_NEVER when none) and the same in the run (@run_ms, -1 when none):
 * ms, < 0 before the start, or OBS_NEVER.
 */
int64_t obs_first(int64_t past_ms, int64_t run_ms);

/*
 * obs_halt_at() - when halted Rollout @r halted: its past_halt_ms when it
 * was loaded halted and the snapshot dates that halt (ms <= 0), else
 * halt_ms (ms of this run; 0 for a halt before the start not dated).
 */
int64_t obs_halt_at(const struct obs_rollout *r);

struct obs;

/*
 * obs_new() - starts observing @w (installs store watches; call before the
 * run).  @latency_ms: the world's API latency, subtracted from delivery times.
 * @anchor_unix_ms: the wall-clock time of simulated time 0, against which a
 * snapshot's Job start times are read.
 * Returns new; free with obs_free() after finishing with the results.
 */
struct obs *obs_new(struct des *w, int64_t latency_ms, int64_t anchor_unix_ms);

/*
 * obs_loaded() - call once the loaded objects are in @o's world, before the
 * run: a Rollout already Failed then (a snapshot of a halted rollout) is
 * marked halted before the start (obs_rollout.halted_before_start) instead
 * of halting at 0 with the blast radius of a world half delivered, dated
 * (past_halt_ms) where the snapshot says when, and so is one that halted
 * and recovered before a snapshot of the simulator that carries the halt
 * (its step, reason and message too); and what
 * a snapshot of the simulator carries of the history before it
 * (@s->observer, SCN_OBSERVER_STATE; @s borrowed, may be NULL) becomes the
 * past_* times, the creation times and the carried blast radius.  A
 * Workspace or Rollout without that state (a plain `kubectl get -o yaml`)
 * gets the past_* times its objects tell: a Workspace's as struct
 * obs_workspace says; a Rollout's creation from its creationTimestamp, and
 * its steps' as derive_rollout() in observe.c reads them from status.currentStep
 * and its Workspaces' times (a level completed when its last member became
 * Applied, opened when the level before completed or a member began, if
 * earlier).  A Rollout loaded Failed without that state gets the blast
 * radius those times decide: with its halt dated, each Workspace of its
 * Project began applying before the halt (its apply Job created by then, or
 * without that Job Applied, or its apply failed, by then), or had not begun
 * by the snapshot (no apply Job, not Applying, never Applied:
 * status.observedRevision empty, as Step 8 writes it on each success); one
 * that began at a time not told, or after the halt (an earlier apply is not
 * told), leaves it not known (blast_known false).
 */
struct scenario;
void obs_loaded(struct obs *o, const struct scenario *s);

/*
 * obs_on_complete() - call @fn(@ctx) at every change after which the run
 * is complete, having not been before: every Rollout there says
 * Applied/RolloutCompleted and every FleetRollout phase Completed now; or,
 * with neither, every Workspace is Applied.  (Now, not once: a fleet that
 * completed one version and took up the next is not complete any more.)  A
 * Rollout without steps that says Ready/NoSteps counts as complete, as
 * sim/observe/outcome.c counts it (upstream does not requeue it), once no
 * Workspace runs or holds a grant: what it granted before still finishes.
 * Call after loading the world (it
 * starts from what the store holds).  Used to end a run there.
 */
void obs_on_complete(struct obs *o, void (*fn)(void *ctx), void *ctx);

/* obs_is_complete() - whether the run is complete now, by the same rule. */
bool obs_is_complete(const struct obs *o);

/*
 * obs_idle_rollouts() - how many Rollouts are idle now (Ready/NoSteps while
 * they have no steps), each counted complete by obs_on_complete()'s rule.
 */
size_t obs_idle_rollouts(const struct obs *o);

/*
 * obs_state() - what a snapshot of the world now carries of @kind
 * ("Workspace" or "Rollout") @ns/@name for the observer of a resumed run
 * (SCN_OBSERVER_STATE's Workspace and Rollout keys, sim/load/scenario.h):
 * the first instants seen so far, this run's and those it was seeded with,
 * as wall-clock times; a Rollout's creation, completion, steps and the
 * blast radius of its halt when known.  Call during the run (before
 * obs_finish()).  Returns new "KEY=VALUE ..." text (caller frees), or NULL
 * when there is nothing to carry.
 */
char *obs_state(const struct obs *o, const char *kind, const char *ns, const char *name);

/* obs_free() - frees the observer and its results.  Accepts NULL. */
void obs_free(struct obs *o);

/*
 * obs_finish() - computes the step members from the store's final state.
 * Call once, after the run.
 */
void obs_finish(struct obs *o, struct des *w);

/* obs_rollouts() - the observed Rollouts in (namespace, name) order; borrowed. */
const struct obs_rollout *obs_rollouts(const struct obs *o, size_t *n);

/* obs_workspace() - what was seen of Workspace @ns/@name, or NULL; borrowed. */
const struct obs_workspace *obs_workspace(const struct obs *o, const char *ns, const char *name);

/*
 * obs_fleet_views() - for each FleetRollout at the end of the run, in name
 * order, the view `stagesetctl fleet NAME` would print (engine/fleet_view.h);
 * borrowed.  Filled by obs_finish().
 */
char *const *obs_fleet_views(const struct obs *o, size_t *n);

/* obs_workspaces() - every observed Workspace in (namespace, name) order; borrowed. */
const struct obs_workspace *obs_workspaces(const struct obs *o, size_t *n);

#endif
