#ifndef MAGOS_SIM_MODELS_H
#define MAGOS_SIM_MODELS_H

/*
 * The synthetic side of a Magos run: what a cluster's kubelet, scheduler,
 * Job controller, garbage collector, Terraform runner, Kyverno and git
 * remotes would do, driven by the scenario's `spec.models` (struct
 * scn_models) and its model events (scenario.mevents).
 *
 * Job runner (the JOB CONTRACT of the issue-3 brief).  It watches Jobs
 * (batch/v1) through the store, as the Job controller does, so it sees a
 * Job after the API latency:
 *
 *   seen      the Job controller syncs the new Job: status
 *             {active: 1, startTime: <RFC 3339>} (a Pending pod counts as
 *             active, as in Kubernetes), and the pod joins the runner queue;
 *   slot      the pod gets one of `capacity` runner slots (FIFO in the order
 *             the Jobs were seen, which is their creation order; unlimited
 *             by default, so slot = seen);
 *   start     the container runs `podStartup` later (default 5s, constant);
 *   end       after the sampled duration (plan or apply model, the first
 *             matching rule per field, else the default: plan 15s, apply
 *             25s, constant, no failures), exactly one of
 *               success  {succeeded: 1, startTime, completionTime,
 *                         conditions: [{type: Complete, status: "True"}]}
 *               failure  {failed: 1, startTime, conditions: [{type: Failed,
 *                         status: "True", reason: BackoffLimitExceeded,
 *                         message: "Job has reached the specified backoff limit"}]}
 *   deadline  spec.activeDeadlineSeconds after startTime (truncated to the
 *             second, as the stored metav1.Time is), if the Job has not
 *             ended: {failed: 1, startTime, conditions: [{type: Failed,
 *             status: "True", reason: DeadlineExceeded, message: "Job was
 *             active longer than specified deadline"}]}.  As in Kubernetes
 *             the deadline counts from startTime, so time spent waiting for
 *             a slot counts too, and a Job can fail while still queued.
 *   deleted   a deleted Job leaves the queue or frees its slot at once.
 *   finished elsewhere  a finished status someone else writes (a scenario
 *             event on the status subresource) ends the Job as that status
 *             says: it leaves the queue or frees its slot at once, and the
 *             runner writes nothing more to it.
 *
 * The slot is held from `slot` to the end (or deletion).  A Job found
 * already finished (status succeeded/failed > 0, e.g. from a snapshot) is
 * left alone.  A Job found running (a snapshot's, with status.startTime at
 * or before now) resumes where it is: it holds a slot since its startTime
 * (to the millisecond when the snapshot says it, SCN_JOB_START_ANNOTATION:
 * status.startTime holds whole seconds, as upstream writes it)
 * (over the capacity if need be: the snapshot does not say whether its pod
 * waited), its container started `podStartup` after startTime, and its
 * duration is drawn from the model conditioned on the time its container
 * has already run (dist_sample_beyond(); a model with no mass beyond it
 * ends the Job at once); the deadline counts from startTime; its status is
 * left as the snapshot has it until it ends.
 *
 * Volumes: a PersistentVolumeClaim seen without status.phase (the
 * Workspace controller's `<ws>-data`, or a snapshot's written without its
 * status) is bound at once, status {phase: Bound, accessModes, capacity:
 * {storage}} from its spec (cause job-runner).  A model choice: upstream's
 * ensurePVC reads nothing of the claim but that it exists, and the Jobs'
 * pods are not scheduled here, so a storage class that binds on first
 * consumer, or one that never binds, changes nothing the controllers do.
 * No PersistentVolume is simulated (spec.volumeName stays unset).
 *
 * Plan outcome, in this order: a scripted failNext (consumed) fails it; else
 * a scripted succeedNext (consumed) makes Terraform succeed; else it fails
 * with the failure probability.  A successful Terraform plan whose Job has a
 * non-empty MAGOS_POLICY_SELECTOR env then runs the policy check of
 * cmd/job/main.go validatePolicies: the ValidatingPolicy objects
 * (policies.kyverno.io/v1) whose labels match the selector, in name order;
 * none → no check.  Each checked policy is violated when a scripted
 * `violate` for it is pending for the Workspace (consumed), else — unless
 * succeedNext was consumed — with its violation probability (default 0).
 * Scripted violations still pending for policies this plan did not check
 * are dropped with a timeline warning (the plan could not violate them).
 * The result goes to the Job's top-level field `podLog` (obj.rest) before
 * the status is written: {result: {passed: bool, violations: [{policy,
 * message}]}} where violations is null when passed (Go marshals an empty
 * slice that way) and message is the policy's first
 * spec.validations[].message (else "failed expression: <expression>").  A
 * plan with violations fails.  An unparseable selector fails the plan
 * without podLog (the List call fails upstream).  Apply Jobs: failNext,
 * succeedNext, else the failure probability.  Deadline failures and deleted
 * Jobs consume no scripted outcome.
 *
 * Random numbers: every draw has its own PCG32 stream rng_stream(seed,
 * trial, id) with id "job/<ns>/<workspace>/<plan|apply>#<n>/<what>" (n =
 * 1, 2, ... counting that Workspace's Jobs of that type as seen; what =
 * "duration", "failure" or "policy/<name>"), so changing one Workspace's
 * model, or adding a Workspace, leaves every other draw where it was
 * (common random numbers).
 *
 * Garbage collection: when a Workspace is gone from the store (its
 * finalizers removed), the Jobs and PVCs of its namespace with an
 * ownerReference to its uid are deleted (the garbage collector's background
 * propagation; the Workspace controller sets the controller reference on
 * both, and a snapshot's objects keep theirs).
 *
 * Git remotes: a map (repoURL, ref) → SHA over time; see mdl_git_resolve().
 *
 * Writes are attributed to "job-runner", "garbage-collector" or "scenario
 * event N (<action>)" in the timeline.
 */

#include <stddef.h>
#include <stdint.h>

#include "engine/labels.h"
#include "sim/world/des.h"
#include "sim/load/scenario.h"

#define MDL_LABEL_WORKSPACE "magosproject.io/workspace"
#define MDL_LABEL_JOB_TYPE "magosproject.io/job-type"
#define MDL_ANN_RECONCILE_REQUEST "magosproject.io/reconcile-request"
#define MDL_ANN_APPROVED "magosproject.io/approved"

/* Where a Job stands for the runner. */
enum mdl_job_state {
	MDL_JOB_WAITING,   /* seen, waiting for a runner slot */
	MDL_JOB_STARTING,  /* holds a slot; container not running yet */
	MDL_JOB_RUNNING,   /* container running */
	MDL_JOB_SUCCEEDED,
	MDL_JOB_FAILED,    /* BackoffLimitExceeded (Terraform or policy failure) */
	MDL_JOB_DEADLINE,  /* DeadlineExceeded */
	MDL_JOB_DELETED,   /* deleted before it ended */
	MDL_JOB_FOREIGN,   /* found already finished; never run */
};

/*
 * What the runner recorded about one Job (for capacity reports).  Times are
 * ms since scenario start; -1 when it did not happen (yet).
 */
struct mdl_job_stat {
	const char *ns;          /* owned by the model */
	const char *name;
	const char *workspace;   /* label value, "" when absent */
	enum scn_job_type type;
	enum mdl_job_state state;
	int64_t seen_ms;         /* the runner saw it (status.startTime, untruncated) */
	int64_t slot_ms;         /* it got a runner slot */
	int64_t start_ms;        /* its container started */
	int64_t end_ms;          /* it ended (success, failure, deadline) or was deleted */
	int64_t duration_ms;     /* sampled run time, container start to end */
	int64_t deadline_ms;     /* when activeDeadlineSeconds runs out */
	size_t nviolations;      /* policy violations reported */
	/*
	 * A Job a snapshot caught running (status.startTime at or before the
	 * start, not finished): taken to hold its slot from startTime (slot_ms
	 * <= 0), as the snapshot does not say whether its pod waited for one,
	 * over the capacity if need be; seen_ms is the run's start.
	 */
	bool resumed;
};

/* One step of the capacity series: from t_ms on, this many Jobs hold a slot / wait. */
struct mdl_cap_point {
	int64_t t_ms;
	uint32_t running; /* slot holders (starting or running) */
	uint32_t waiting;
};

/* The longest Job run a model draws: Go's maximum time.Duration, in ms. */
#define MDL_MAX_DURATION_MS 9223372036854LL

struct mdl;

/*
 * mdl_new() - the models of @s in world @w: installs the watches (Job,
 * Workspace) and builds the git remotes.  Call it after the world's objects
 * are loaded or before, but before des_run().
 * @s:     the scenario (borrowed; must outlive the model: its models and
 *         model events are read, not copied).
 * @w:     the world (borrowed; must outlive the model); its seed
 *         (des_params(w)->seed) seeds every stream.
 * @trial: Monte Carlo trial index (0 for a single run).
 * Returns: new; free with mdl_free() after the last des_run() and before
 *          des_free(@w) is fine too (the watches only run inside des_run()).
 * Errors:  cannot fail (aborts on OOM).
 */
struct mdl *mdl_new(const struct scenario *s, struct des *w, uint64_t trial);

/*
 * mdl_collect_orphans() - the garbage collector on the loaded objects: each
 * object of the scenario with ownerReferences none of whose uids is the uid
 * of a loaded object is deleted (cause "garbage-collector"), as the
 * cluster's garbage collector deletes a dependent whose owners are all gone
 * (background propagation).  A reference without a uid keeps its object.
 * One info notice names them (the first five), dated des_now().  Call once,
 * after the objects are loaded into @m's world and before the controllers
 * start, so that they never list what the collector removed.
 * Errors: cannot fail (aborts on OOM).
 */
void mdl_collect_orphans(struct mdl *m);

/*
 * mdl_free() - frees @m.  Accepts NULL.  Pending model events must not run
 * afterwards: free the model after the world's last des_run().
 */
void mdl_free(struct mdl *m);

/*
 * mdl_schedule_events() - schedule every model event of the scenario
 * (commit, failNext, succeedNext, violate, reconcileRequest, approve) at its
 * time with DES_PRIO_SCRIPT.  Call it once, after the object events of
 * sim/run/run.c were scheduled, so that at one instant object events (an apply
 * creating the Workspace) fire before model events, as the loader assumed
 * when it checked the targets.
 *   commit            timeline info notice (the SHA is in the remote table
 *                     already: resolve is a function of time)
 *   failNext/succeedNext/violate  pending outcome for the Workspace's next
 *                     Job of that type that ends
 *   reconcileRequest  annotation magosproject.io/reconcile-request = the
 *                     value given, else the simulated wall time in
 *                     RFC 3339 with fraction (Go's RFC3339Nano, as the
 *                     upstream API writes it)
 *   approve           annotation magosproject.io/approved: "true"
 * A write the store refuses (the Workspace is gone) becomes a timeline
 * warning naming the event's file:line:col.
 */
void mdl_schedule_events(struct mdl *m);

/*
 * mdl_git_resolve() - what `git ls-remote` + the RefWatcher's resolveRef
 * give for @ref of @repo_url at simulated time @now_ms.
 * @sha_out: 41 bytes; receives 40 lower-case hex digits and a NUL on success.
 * Resolution: a 40-character @ref is the SHA itself; otherwise the ref is
 * made canonical (refs/heads/x, refs/tags/x → x; "" and HEAD → the
 * repository's head branch, default "main") and its SHA is that of the last
 * commit event at or before @now_ms, else its initial SHA: the one given in
 * spec.models.git.repositories[].refs, else 40 hex digits derived from
 * (repo, ref) alone, so bare manifests resolve.  Every ref of every
 * repository exists.
 * Returns: 0; -1 (ls-remote error) when @now_ms lies in an unreachable
 *          window of the repository.  Cost: O(log commits + windows).
 */
int mdl_git_resolve(const struct mdl *m, const char *repo_url, const char *ref, int64_t now_ms,
		    char *sha_out);

/*
 * mdl_armed_text() - the model events that fired for Workspace @ns/@name
 * and have not met their Job yet (its failNext and succeedNext events, then
 * its violate events, each in the order they fired), as their 1-based
 * positions in spec.events joined by ",": what a snapshot carries
 * (SCN_ARMED_ANNOTATION).
 * Returns: a new string (caller frees), or NULL when none is armed.
 */
char *mdl_armed_text(const struct mdl *m, const char *ns, const char *name);

/*
 * mdl_job_start_time() - for Job @ns/@name that the runner runs (waiting,
 * starting or running): the instant its status.startTime stands for, to the
 * millisecond (status.startTime holds whole seconds), in simulated ms into
 * *@ms: what a snapshot carries (SCN_JOB_START_ANNOTATION).
 * Returns: true; false for a Job the runner does not run (finished, never
 * seen, deleted).
 */
bool mdl_job_start_time(const struct mdl *m, const char *ns, const char *name, int64_t *ms);

/*
 * mdl_jobs() - every Job the runner has seen, in the order seen.
 * @out: receives a borrowed array, valid until the next event of the world
 *       or mdl_free().
 * Returns: the count.
 */
size_t mdl_jobs(const struct mdl *m, const struct mdl_job_stat **out);

/*
 * mdl_capacity_series() - the number of Jobs holding a slot and waiting,
 * over time: one point per instant at which either changed, holding the
 * last state of that instant (the initial {0, 0, 0} point is replaced when
 * Jobs arrive at time 0).
 * @out: borrowed array, valid as for mdl_jobs().  Returns: the count (>= 1).
 */
size_t mdl_capacity_series(const struct mdl *m, const struct mdl_cap_point **out);

/* mdl_capacity_peak() - the most Jobs that held a slot at once. */
uint32_t mdl_capacity_peak(const struct mdl *m);

/* mdl_capacity() - runner slots; 0 = unlimited. */
uint32_t mdl_capacity(const struct mdl *m);

/*
 * mdl_parse_selector() - a label selector string as labels.Parse reads it
 * (what labels.Selector.String() and lbl_selector_string() print):
 * requirements separated by ',', each `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
 * `k notin (a,b)`, `k` or `!k`, blanks allowed around tokens.  `k!=v` is
 * kept as `k notin (v)` (they match the same label sets).  Keys and values
 * are checked as label keys / values.
 * @s:   borrowed.  "" gives the empty selector (matches everything).
 * @out: filled (release with lbl_selector_release()); empty on error.
 * @err: receives a message on error (may be NULL when @len is 0).
 * Returns: 0, or -1 for a syntax error, a `>`/`<` requirement (not a label
 *          selector of metav1.LabelSelector) or a bad key or value.
 */
int mdl_parse_selector(const char *s, struct lbl_selector *out, char *err, size_t len);

#endif
