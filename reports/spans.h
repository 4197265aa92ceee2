#ifndef MAGOS_REPORTS_SPANS_H
#define MAGOS_REPORTS_SPANS_H

/*
 * Spans: the intervals and points a picture of one run needs (Gantt rows,
 * trace events, charts), computed once from a rep_run in one pass over the
 * timeline plus the observers' results.  Renderers (trace, Mermaid, HTML)
 * read an sp_set and never the timeline again.
 *
 * Shapes (all times simulated ms since scenario start; -1 = never):
 *  - drivers: one per Magos Rollout (obs_rollouts() order), then one per
 *    FleetRollout (fo_fleets() order), then, only when some target belongs
 *    to neither, one driver of kind NULL named "(no rollout)";
 *  - groups: a driver's steps (Rollout) or waves (FleetRollout), in spec
 *    order; the "(no rollout)" driver has none;
 *  - targets: every Workspace and StageSet the timeline shows, ordered by
 *    driver, then group (targets of no group last), then namespace and name;
 *    a Workspace belongs to the Rollout of its Project (same namespace) and
 *    to the first step listing it; a StageSet to the first FleetRollout and
 *    wave matching it (fo_member_wave());
 *  - spans of a target: consecutive, non-overlapping, in time order; a span
 *    starts when the target's phase category changes (see enum sp_phase)
 *    and ends when the next starts, when the object is deleted, or at the
 *    end of the run (then open_end is true); zero-length spans are dropped
 *    (a phase category that lasted no simulated time);
 *  - instants: halts, gate evaluations, rollback stamps and the drivers'
 *    status changes (a reconcile that changed phase, reason or message), in
 *    (time, kind, driver, group, target) order;
 *  - counters: step functions over time, one point per instant the value
 *    changed (the last of that instant wins), in time order: running Jobs
 *    (all Workspaces, name "running jobs"), adopting members per
 *    FleetRollout ("adopting members"), and per wave with a gate its gate
 *    metric value at each evaluation that returned one ("gate <wave>").
 *
 * Workspace categories come from status.phase: Pending → PENDING, Planning
 * → PLANNING, Planned (autoApply false: the plan waits for approval) →
 * AWAITING_APPROVAL, Applying → APPLYING, Applied → APPLIED, Failed and
 * ValidationFailed → FAILED, anything else → OTHER.  StageSet categories
 * come from the Ready reason and annotations: AwaitingApproval →
 * AWAITING_APPROVAL; an approved-version annotation set or changed →
 * ADOPTING until the next Ready reason; Succeeded → READY (ROLLED_BACK when
 * it follows a rollback-to stamp on the member); a rollback-to stamp →
 * ROLLING_BACK until the next Ready reason; any other reason (StageFailed,
 * DowngradeNotAllowed, ...) → NOT_READY; a StageSet with no reason yet →
 * PENDING.  With run->member_attempts (sp_build()), ADOPTING and
 * ROLLING_BACK come from the adoption attempts instead of the annotations.
 *
 * Strings are borrowed from the run (its timeline and observers) unless a
 * field says owned; an sp_set lives no longer than the run it was built from.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reports/report.h"

/* A target's phase category (see the mapping above). */
enum sp_phase {
	SP_PENDING,
	SP_PLANNING,
	SP_AWAITING_APPROVAL,
	SP_APPLYING,
	SP_APPLIED,
	SP_FAILED,
	SP_ADOPTING,
	SP_READY,
	SP_NOT_READY,
	SP_ROLLING_BACK,
	SP_ROLLED_BACK,
	SP_OTHER,
	SP_NPHASES
};

struct sp_span {
	int64_t start_ms, end_ms; /* start < end */
	enum sp_phase phase;
	const char *label;        /* the phase (Workspace) or Ready reason (StageSet) that began it; may be NULL */
	bool open_end;            /* still in it when the run ended */
};

/* A step (Rollout) or wave (FleetRollout). */
struct sp_group {
	const char *name;
	int64_t opened_ms;
	int64_t settled_ms;   /* step: completed; wave: start of the settled stretch it passed on (or first settled) */
	int64_t soak_end_ms;  /* wave: soak end (soakUntil of the soak it passed on), -1 for steps */
	int64_t passed_ms;    /* step: completed; wave: passed */
	int64_t halted_ms;    /* first halt naming this group, -1 none */
	size_t first, ntargets; /* its targets: sp_set.targets[first .. first+ntargets) */
};

struct sp_driver {
	const char *kind;     /* "Rollout", "FleetRollout", or NULL for "(no rollout)" */
	const char *ns;       /* "" for cluster-scoped */
	const char *name;
	int64_t completed_ms;
	int64_t halted_ms;    /* first halt, -1 none */
	struct sp_group *groups; /* owned array */
	size_t ngroups;
	size_t first, ntargets;  /* its targets: sp_set.targets[first .. first+ntargets) */
};

struct sp_target {
	const char *kind;     /* "Workspace" or "StageSet" */
	const char *ns, *name;
	size_t driver;        /* index into sp_set.drivers */
	long group;           /* index into the driver's groups, -1 none */
	struct sp_span *spans; /* owned array, time order */
	size_t nspans;
	enum sp_phase final;  /* the category at the end of the run, even one that lasted no time */
	bool gone;            /* deleted before the end of the run */
};

enum sp_instant_kind {
	SP_I_HALT,     /* label: reason; message: halt message */
	SP_I_GATE,     /* label: verdict; value/has_value; threshold; message: error or NULL */
	SP_I_STAMP,    /* label: rollback-to value; message: member "ns/name" */
	SP_I_STATUS,   /* a driver status change: label: phase, message: reason (NULL when none) */
};

struct sp_instant {
	int64_t t_ms;
	enum sp_instant_kind kind;
	size_t driver;
	long group;           /* -1 when not about one group */
	long target;          /* index into sp_set.targets, -1 none */
	const char *label;
	const char *message;
	double value;         /* SP_I_GATE with has_value */
	bool has_value;
	const char *min, *max; /* SP_I_GATE threshold bounds as written, NULL absent */
};

struct sp_point {
	int64_t t_ms;
	double value;
};

struct sp_counter {
	char *name;           /* owned: "running jobs", "adopting members", "gate WAVE" */
	const char *series;   /* static: what is counted, "jobs", "members", "metric" */
	long driver;          /* index, -1 for the whole run */
	long group;           /* index, -1 none */
	struct sp_point *points; /* owned, time order, strictly increasing t_ms */
	size_t npoints;
};

struct sp_set {
	int64_t end_ms;       /* end of the run */
	struct sp_driver *drivers;
	size_t ndrivers;
	struct sp_target *targets;
	size_t ntargets;
	size_t nspans;        /* total over the targets */
	struct sp_instant *instants;
	size_t ninstants;
	struct sp_counter *counters;
	size_t ncounters;
};

/*
 * sp_build() - computes the spans of @run into @s (caller's struct,
 * overwritten).
 * @run: the run (borrowed; must outlive @s: strings point into it).
 *
 * The timeline shows when an adoption ends (the status write) but not when
 * it starts: a member approved ahead of its version (the canary of a pinned
 * targetVersion), or waiting for a free worker, shows nothing until the
 * outcome.  With run->member_attempts, each adoption attempt the fleet
 * observer recorded (fo_member_attempts()) is an ADOPTING span
 * (ROLLING_BACK when a rollback-to stamp directed it) from the pass that
 * started it to its outcome's write (or the end of the run, open_end),
 * labelled with the version it adopts, laid over what the timeline showed
 * (the annotations then start nothing).  So a member adopts its baseline at
 * the start, then each later version in its own span, and the adopting
 * counters count members with an attempt in flight: the definition of
 * sim/plan/trials.h's peak_adopting.
 * Errors: cannot fail (aborts on OOM).
 * Cost: O(timeline entries + targets log targets + gate evaluations + attempts).
 * Release with sp_release().
 */
void sp_build(struct sp_set *s, const struct rep_run *run);

/* sp_release() - frees what sp_build() allocated; @s is empty again.  Accepts NULL. */
void sp_release(struct sp_set *s);

/* sp_phase_name() - "pending", "planning", "awaiting approval", ...; static. */
const char *sp_phase_name(enum sp_phase p);

/* sp_instant_kind_name() - "halt", "gate", "rollback", "status"; static. */
const char *sp_instant_kind_name(enum sp_instant_kind k);

/*
 * sp_driver_label() - writes "Rollout ns/name", "FleetRollout name" or
 * "(no rollout)" for driver @d into @buf (@size bytes, truncated).
 * Returns: @buf.
 */
char *sp_driver_label(const struct sp_driver *d, char *buf, size_t size);

#endif
