#ifndef MAGOS_SIM_STAGESET_MODEL_H
#define MAGOS_SIM_STAGESET_MODEL_H

/*
 * The StageSet member side of a fleet run (spec
 * ../shared/specs/fleetrollout-controller.md §3, at the level a FleetRollout
 * observes): a model standing in for the stageset-controller and the
 * workloads it deploys.  It watches StageSets through the store, runs the
 * version plan and approval gate of engine/stageset.h (ss_plan_compute) for
 * each member, and writes the member's status through the store, so the
 * fleet sees it after the API latency like any other write.
 *
 * The controller (SC:Reconcile, SetupWithManager):
 *   workers   `workers` reconciles at once (concurrentReconciles = 4
 *             upstream; 0 = unlimited), a FIFO work queue with one entry per
 *             StageSet (de-duplicated; a StageSet woken while it is being
 *             reconciled is queued again when that pass ends), timed
 *             requeues where the earlier time wins, and error back-off
 *             (5 ms doubling to 1000 s, reset by a pass without error);
 *   wakes     creation; a generation change; a change of the
 *             approved-version or rollback-to annotation
 *             (migrationApprovalPredicate); the offered version changing
 *             (a publish reaching the member, or a relabel that changes which
 *             publish it sees: the ExternalArtifact event upstream); timed
 *             requeues.  Its own status writes do not wake it;
 *   a pass    reads the StageSet (spec.version.approvalMode, allowDowngrade,
 *             requireMigrationCoverage; status.version, pendingVersion;
 *             the two annotations), takes the offered version (the last
 *             publish matching the member, else spec.version.value) and the
 *             migrations of its rule, and computes the plan:
 *     refused / AwaitingApproval  Ready False with the plan's reason and
 *             message, pendingVersion and observedGeneration as the plan
 *             says; requeue 60 s (permanentRetryInterval);
 *     no change (or unversioned)  the stage loop re-verifies: Ready True
 *             `Succeeded` "Applied and verified N stage(s)" (or the
 *             regression failure below when a regression window is open),
 *             status.version = desired when versioned; requeue at the
 *             steady interval ±jitter;
 *     baseline / upgrade / downgrade  an adoption attempt: the workload
 *             becomes ready (or fails) `adoption duration` after the pass
 *             starts.  The pass blocks its worker in the verify wait, at
 *             most `verify_timeout_ms` (defaultStageTimeout, 15 min):
 *               outcome within the wait, success  status.version = desired,
 *                 pendingVersion cleared, Ready True `Succeeded`,
 *                 observedGeneration; steady requeue;
 *               outcome within the wait, failure  Ready False `StageFailed`
 *                 `stage "<stage>" verify: failed early: Deployment/<ns>/<name>`
 *                 (+ runbook), pendingVersion cleared, version unchanged;
 *                 error back-off, and the retry is a new attempt;
 *               wait runs out first  Ready False `StageProgressing`
 *                 `stage "<stage>" is applied and still becoming ready:
 *                 timeout waiting for: Deployment/<ns>/<name> (waited
 *                 <timeout>: stage readyChecks.timeout, else
 *                 stages[].timeout, else spec.timeout)` (+ runbook),
 *                 pendingVersion cleared, version unchanged; requeue after
 *                 `retry_interval_ms`; the next pass of the same plan
 *                 continues the same attempt (its outcome is seen at once
 *                 when it is already due, else it waits again).
 *             Until the pass ends nothing is written: while the worker waits
 *             the fleet still sees what the member showed before (e.g.
 *             AwaitingApproval with pendingVersion).  A pass whose plan
 *             differs from the attempt in flight (another desired version)
 *             abandons it (outcome SSM_SUPERSEDED) and acts on the new plan.
 *   every write sets status.observedGeneration to the generation the pass
 *   read, and the Ready condition with observedGeneration and a
 *   lastTransitionTime (wall time, whole seconds) reset when status, reason
 *   or message change; other conditions are kept.
 *
 * Regressions (a deployed workload going unhealthy): a window [start, end)
 * per member, scripted (ssm_regression) or drawn after a successful adoption
 * (rule's regression probability, onset delay and duration).  At its start a
 * member whose last write was a success shows Ready False `StageFailed` with
 * the verify failure message above (a health check failing, what the steady
 * re-verify reports); at its end (no other window open) it shows Ready True
 * `Succeeded` again.  While a window is open every pass that reaches the
 * stage loop fails with that message (adoptions whose outcome falls in the
 * window fail, outcome SSM_REGRESSED).  Held or refused members never reach
 * the stage loop, so a regression does not change what they show.
 *
 * Random numbers: every draw has its own PCG32 stream rng_stream(seed,
 * trial, id) with seed des_params(w)->seed and id
 *   "stageset/<ns>/<name>/adopt#<n>/<what>"  (n = 1, 2, ... the member's
 *       attempts; what = duration, failure, regression, regression-onset,
 *       regression-duration)
 *   "stageset/<ns>/<name>/requeue#<k>"  (k = 1, 2, ... steady requeues)
 * so changing one member's rule, or adding a member, leaves every other
 * member's draws where they were (common random numbers).
 *
 * Writes are attributed to "reconcile stageset-controller <ns>/<name>", or
 * "workload <ns>/<name>" for the regression windows, in the timeline.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/labels.h"
#include "engine/stageset.h"
#include "sim/world/des.h"
#include "sim/load/dist.h"

/* A version published by the members' source from at_ms on. */
struct ssm_publish {
	int64_t at_ms;                     /* ms since scenario start, >= 0 */
	const struct lbl_selector *selector; /* members whose labels match; NULL: use @member */
	const char *member;                /* "ns/name" of one member when @selector is NULL */
	const char *version;               /* the version text offered (not checked here) */
};

/*
 * A model rule: members whose labels match @selector.  For each field the
 * first rule that matches and sets it wins, else ssm_params.defaults.
 */
struct ssm_rule {
	struct lbl_selector selector;
	bool has_adopt;
	struct dist adopt;                 /* adoption duration, ms (validated) */
	bool has_failure;
	double failure_probability;        /* per attempt, ratio 0..1 */
	bool has_regression;
	double regression_probability;     /* per successful adoption, ratio 0..1 */
	struct dist regression_onset;      /* ms after the success */
	struct dist regression_duration;   /* ms */
	/*
	 * Which adopted versions may regress (first rule that sets it wins, as
	 * for the other fields): exact version text, borrowed from the scenario.
	 * In the defaults, has_regression_versions false means every version.
	 */
	bool has_regression_versions;
	char *const *regression_versions;
	size_t nregression_versions;
	bool has_migrations;
	const struct ss_migration *migrations; /* the ladder: {name, to, has_down} */
	size_t nmigrations;
};

/* A scripted regression: the members matching @selector (or @member) go unhealthy at at_ms for duration_ms. */
struct ssm_regression {
	int64_t at_ms;
	const struct lbl_selector *selector; /* NULL: use @member */
	const char *member;                  /* "ns/name" */
	int64_t duration_ms;                 /* > 0 */
};

/*
 * Parameters; everything is borrowed and must outlive the model.  Fill with
 * ssm_params_init() first.
 */
struct ssm_params {
	int64_t anchor_unix_ms;            /* wall time of simulated 0, for lastTransitionTime */
	uint64_t trial;                    /* Monte Carlo trial index */
	const struct ssm_publish *publish; /* any order; equal times keep array order */
	size_t npublish;
	const struct ssm_rule *rules;
	size_t nrules;
	struct ssm_rule defaults;          /* selector and has_* ignored; init: adopt constant 0, no failure, no regression, no migrations */
	const struct ssm_regression *regressions;
	size_t nregressions;
	uint32_t workers;                  /* concurrent reconciles; init 4; 0 = unlimited */
	int64_t verify_timeout_ms;         /* init 15 min; <= 0: a pass waits for the outcome however long */
	int64_t retry_interval_ms;         /* after StageProgressing; init 10 min (the interval) */
	int64_t interval_ms;               /* steady requeue after success; init 10 min; 0: none */
	double interval_jitter;            /* ratio; init 0.05 (uniform ±5 %) */
	const char *stage;                 /* stage name in messages; init "app" */
	size_t nstages;                    /* for "Applied and verified N stage(s)"; init 1 */
};

/* ssm_params_init() - the defaults listed at struct ssm_params.  Cannot fail. */
void ssm_params_init(struct ssm_params *p);

/* How an adoption attempt ended. */
enum ssm_outcome {
	SSM_IN_FLIGHT,    /* not yet */
	SSM_SUCCEEDED,    /* status.version = desired, Ready True */
	SSM_FAILED,       /* the failure draw: Ready False StageFailed */
	SSM_REGRESSED,    /* a regression window was open at the outcome: StageFailed */
	SSM_SUPERSEDED,   /* a later pass planned another version first */
	SSM_ABANDONED,    /* the StageSet was deleted */
};

/* ssm_outcome_name() - "in-flight", "succeeded", "failed", "regressed", "superseded", "abandoned". */
const char *ssm_outcome_name(enum ssm_outcome o);

/* One adoption attempt.  Times in ms since scenario start; -1 when it did not happen. */
struct ssm_adoption {
	const char *version;      /* desired version (owned by the model) */
	const char *from;         /* status.version when it started ("" for a baseline) */
	uint32_t attempt;         /* n of the stream ids */
	bool baseline, downgrade, directed; /* directed: by the rollback-to annotation */
	int64_t held_ms;          /* first pass that held this version for approval */
	int64_t approved_ms;      /* pass that found the approval (-1: none was needed) */
	int64_t start_ms;         /* the pass that started the attempt */
	int64_t ready_ms;         /* start + sampled duration: when the outcome is due */
	int64_t end_ms;           /* when the outcome was written (or superseded/abandoned) */
	enum ssm_outcome outcome;
};

/* One regression window of a member. */
struct ssm_window {
	int64_t start_ms, end_ms;
	bool scripted;            /* from ssm_params.regressions, else drawn */
	const char *version;      /* status.version at the start (owned by the model) */
};

/* What the model recorded about one member. */
struct ssm_member_stat {
	const char *ns, *name;               /* owned by the model */
	const struct ssm_adoption *adoptions; /* in start order */
	size_t nadoptions;
	const struct ssm_window *windows;    /* in start order */
	size_t nwindows;
	uint32_t passes;                     /* reconciles run */
	uint32_t holds;                      /* passes that held (AwaitingApproval) */
	uint32_t refusals;                   /* passes with a refused plan */
};

struct ssm;

/*
 * ssm_new() - the member model in world @w: installs the StageSet watch and
 * schedules the publish and scripted regression events (DES_PRIO_SCRIPT).
 * Call before des_run().  StageSets already in the store are picked up by
 * the watch's initial ADDED events, like any controller's.
 * @p: parameters (borrowed, must outlive the model); dists validated.
 * Returns: new; free with ssm_free().  Cannot fail (aborts on OOM).
 */
struct ssm *ssm_new(struct des *w, const struct ssm_params *p);

/* ssm_free() - frees @m; accepts NULL.  Call after the world's last des_run(). */
void ssm_free(struct ssm *m);

/*
 * ssm_members() - every member seen, in the order first seen.
 * @out: receives a borrowed array, valid until the next event of the world
 *       or ssm_free().
 * Returns: the count.
 */
size_t ssm_members(const struct ssm *m, const struct ssm_member_stat **out);

/* ssm_member() - the stats of "ns/name" (borrowed, as for ssm_members()), or NULL. */
const struct ssm_member_stat *ssm_member(const struct ssm *m, const char *ns, const char *name);

/* ssm_offered() - the version @ns/@name's source offers now (borrowed), or NULL for none (spec.version.value is not consulted). */
const char *ssm_offered(const struct ssm *m, const char *ns, const char *name);

/* ssm_busy_peak() - the most reconciles that ran at once (workers in use). */
uint32_t ssm_busy_peak(const struct ssm *m);

#endif
