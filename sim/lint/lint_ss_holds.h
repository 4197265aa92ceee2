#ifndef MAGOS_SIM_LINT_SS_HOLDS_H
#define MAGOS_SIM_LINT_SS_HOLDS_H

/*
 * The StageSet hold rules of lint (MS234..MS241, MS276): what a
 * StageSet's update windows (and error budget) hold back and what they let through, judged
 * with the port's own window code (engine/stageset_windows.h
 * win_decision(), time zones from the system's tz database through
 * sim/load/tzif.h) at the scenario's wall-clock times:
 *
 *  - MS234: a scenario event edits a StageSet's spec, or stamps
 *    stages.metio.wtf/rollback-to on it, while its update windows hold new
 *    revisions or its error budget is exhausted: both gate only new
 *    artifact revisions (StageSet spec §5 ), so the edit,
 *    its version change and migrations are applied at once;
 *  - MS235: a StageSet's update windows never allow an update again from the
 *    start of the scenario on (an absolute Allow in the past, an Allow whose
 *    schedule never fires): every new revision is deferred forever (§5 Q-20);
 *  - MS236: a stage before the last holds a new revision at a promotion gate
 *    while windows or a budget, checked before the plan, can defer the rest:
 *    Ready True "Deployed; …" on a half-rolled StageSet (§5 Q-9);
 *  - MS237: a StageSet that others dependsOn has an error budget the
 *    scenario's series make read exhausted: a budget hold sets no
 *    pendingUpdate, so the dependents go ahead (§5 Q-10);
 *  - MS238: an event changes a stage's soak while, at the modelled median
 *    durations, that stage soaks: the running soak keeps its deadline
 *    (§5 Q-21);
 *  - MS239: an update-now (budget-override) token stamped while the window
 *    (budget) holds, on a pass a later gate (approval, budget) holds: the
 *    token is spent all the same (§5 Q-11);
 *  - MS240: a promotion gate's onFailure Rollback without
 *    rollbackOnFailure: no snapshot, so the stage is never reverted and
 *    every pass warns PromotionBlocked (§5 Q-18);
 *  - MS241: a restart or event gate whose pod/event list the StageSet
 *    world fails within the horizon: the gate reads on every pass, also of
 *    a promoted stage (§5 Q-16).
 *  - MS276: a publish reaches a StageSet with approvalMode Always while
 *    its windows or budget defer new revisions and the version published
 *    before it is held for approval: the deferral comes before the approval
 *    gate, so status.pendingVersion keeps naming the earlier version
 *    (§5 Q-9).
 *
 * The run tells the same as it happens (sim/run/ss_hazards_holds.h), with
 * lsh_windows_at() below.
 */

#include <stdbool.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "sim/lint/lint.h"
#include "sim/load/tzif.h"

/* What a StageSet's update windows decide at one instant. */
struct lsh_windows {
	bool allowed;       /* new revisions may roll out (window.Decision's allowed) */
	int64_t next_ms;    /* Unix ms of the next change of that decision; INT64_MIN: never */
	bool scope_all;     /* windowScope All: everything is held, not only new revisions */
	char what[256];     /* the windows in words, e.g. `Deny "0 16 * * 5" for 3h0m0s in Europe/Berlin` */
};

/*
 * lsh_time_zone() - the ssc_env time_zone callback over a tz cache: the
 * zone @name from @ctx (a struct tzif_cache *, the run's lookup), or NULL
 * with @err set to the lookup's message.  The zone is owned by the cache.
 */
const struct tz_zone *lsh_time_zone(void *ctx, const char *name, struct ssc_err *err);

/*
 * lsh_windows_at() - the decision of the update windows of the StageSet
 * spec @spec (a map) at Unix time @unix_ms, as the controller's
 * gateUpdateWindows takes it (window.Decision).
 * @tz:  zone cache the named time zones are read through (borrowed).
 * @out: filled when the return is true.
 * Returns: true when @spec declares update windows and every one
 *          evaluates; false without windows, for a spec that does not parse
 *          or a window the controller would refuse (InvalidSpec: admission
 *          and MS001 say so).
 * Errors:  cannot fail otherwise (aborts on OOM).
 * Cost:    one look-up when @spec sets no updateWindows; else one
 *          sst_spec_parse() and one win_decision() (a recurring window walks
 *          at most WIN_MAX_COVERING_STARTS starts).
 */
bool lsh_windows_at(const struct val *spec, struct tzif_cache *tz, int64_t unix_ms, struct lsh_windows *out);

/* What a StageSet's rollout-wide error budget reads at one instant. */
struct lsh_budget {
	double remaining; /* the value its source gives */
	double freeze;    /* freezeThreshold, parsed */
	char freeze_text[64]; /* freezeThreshold as written */
	bool frozen;      /* remaining < freezeThreshold: frozen whatever it was before (resume >= freeze) */
};

/*
 * lsh_budget_at() - what the rollout-wide errorBudget of the StageSet spec
 * @spec reads at scenario time @t_ms from @s's spec.metrics, as the StageSet
 * world answers the controller's query: the entries serving its prometheus
 * query (at its address, else at none) or its webhook url (and jsonPath)
 * must give exactly one finite value, outside their `unavailable` windows.
 * @out: filled when the return is true.
 * Returns: true with a value; false without an errorBudget, with dryRun set
 *          (a dry run never holds), an unparsable freezeThreshold, or no
 *          single value (the controller's onSourceError decides then, and
 *          nothing is claimed).
 * Errors:  cannot fail.  Cost: one look-up when @spec sets no errorBudget;
 *          else one sst_spec_parse() and O(spec.metrics entries).
 */
bool lsh_budget_at(const struct val *spec, const struct scenario *s, int64_t t_ms, struct lsh_budget *out);

/* One scenario event that changes the soak of a stage of a StageSet (MS238). */
struct lsh_soak_edit {
	const struct scn_event *event; /* borrowed from the scenario */
	const struct obj *ss;          /* the StageSet as it stood before the event (borrowed) */
	const char *stage;             /* the stage's name (borrowed from the StageSet) */
	int64_t old_ms, new_ms;        /* promotion.soak before and after, ms; 0 for none */
};

/*
 * lsh_soak_edits() - the events of @s (patches of spec.stages, applies of a
 * StageSet that exists) that change a stage's promotion.soak from a soak to
 * another length (or none), per stage, in event order.
 * @out: receives a new array (caller frees with free()), NULL when none.
 * Returns: its length.  Cannot fail (aborts on OOM).
 */
size_t lsh_soak_edits(const struct scenario *s, struct lsh_soak_edit **out);

/*
 * lint_ss_holds() - adds the findings MS234..MS241 and MS276 for the
 * StageSets of @s (its inputs and its apply events) to @r.  @s borrowed.
 * Cost: O(events × publishes + StageSets) window decisions.
 */
void lint_ss_holds(struct lint_report *r, const struct scenario *s);

#endif
