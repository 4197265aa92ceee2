#ifndef MAGOS_SIM_FLEETOBS_H
#define MAGOS_SIM_FLEETOBS_H

/*
 * The fleet observer: what the reports say about each FleetRollout wave by
 * wave, and the blast radius, detection latency and exposure of its first
 * halt.  It watches FleetRollouts and StageSets in the store during a run
 * and, after it, joins that with the controller's pass log (sim/wire/fleet_rc:
 * gate evaluations, halt episodes, rollback stamps), the StageSet
 * controller's adoption attempts (sim/wire/stageset_rc) and the fault
 * windows of the StageSet world (sim/models/stageset_world).
 *
 * Definitions (they are part of the product, DESIGN §6; README.md says the
 * same).  Times are simulated ms since scenario start: a status is dated by
 * its write (watch delivery less the constant API latency), a pass by the
 * reconcile's clock.  "First" means the first in the whole run.
 *  - waves are named by status.waves (spec order, rebuilt on every full
 *    pass); a wave keeps its times while its name stays;
 *  - a wave OPENS at the first FleetRollout status with phase `InProgress`
 *    and currentWave naming it or a later wave, or with phase `Completed`
 *    (a `Halted` status names the halting wave, which need not be open, and
 *    does not count);
 *  - it SETTLES at the first status showing it `settled: true`; its LAST
 *    SETTLE is the status that began the settled stretch it passed on
 *    (the last one before it passed, or the last one when it never passed);
 *  - its SOAK END is the soakUntil of the soak the wave passed on: the last
 *    soakUntil written before it passed (or the last one written when it
 *    never passed); SOAKS counts the distinct soakUntil values written (a
 *    regression or a new version restarts the soak);
 *  - it PASSES at the first status with phase `InProgress` and currentWave
 *    naming a later wave, or with phase `Completed`;
 *  - its GATE EVALUATIONS are every query of its gate by any pass (time,
 *    value, threshold, verdict Passing/Failing/Unknown), also for a wave not
 *    yet open or already passed (spec §6 #11);
 *  - a HALT is an episode of halting passes: a halting pass whose previous
 *    pass of the FleetRollout did not halt with the same wave and message
 *    starts one; time is its first pass, `passes` counts its passes (a gate
 *    that stays Failing halts on every pass); the reason is the Ready
 *    reason `Halted` and the kind `gate` (its gate evaluated Failing) or
 *    `regression` (a settled wave unsettled);
 *  - a ROLLBACK STAMP is a `stages.metio.wtf/rollback-to` the controller
 *    wrote on a member of the halting wave; the member REVERTED at the
 *    first status.version equal to the stamp's value written at or after
 *    the stamp, and REFUSED at its first Ready reason `DowngradeNotAllowed`
 *    or `DowngradeRequiresMigration` at or after it;
 *  - the BAD VERSION of a halt is the version the halting pass was rolling
 *    out: the X of its version label `version X` (spec.targetVersion when
 *    pinned; the single pending version when derived); with `the current
 *    version` or `mixed versions` there is none and the three figures below
 *    are not given (null);
 *  - the BLAST RADIUS is, for the FleetRollout's first halt, the members
 *    (as that halting pass assigned them to waves) whose status.version was
 *    the bad version at some time at or before the halt: a count out of the
 *    members (each counted once), a share (count / members), and per wave
 *    count / wave members (a member in several waves counts in each);
 *  - the FAULT ONSET is the earliest, at or before the halt, of: the start
 *    of a fault window of a member's workload (the StageSet world's: a
 *    scripted regress event or a drawn regression)
 *    while it ran the bad version, and a member going Ready not-True while
 *    its status.version was the bad version, for a reason other than
 *    `AwaitingApproval`, `DowngradeNotAllowed` or `DowngradeRequiresMigration`
 *    and before the first rollback-to stamp on it (what a member shows
 *    because the halt stamped it is the halt's effect, not its cause); at
 *    equal times a regression window comes before a not-Ready status, then
 *    members in name order.  A resumed run's member loaded not Ready went so
 *    at its Ready condition's lastTransitionTime (an onset before the start);
 *    a window open before the start on a member loaded on the bad version
 *    is an onset the snapshot does not date (onset_undated, no latency).
 *    DETECTION LATENCY = halt − onset, null without
 *    an onset (the halt did not follow a fault seen on the bad version);
 *    the onset member NOTICED the fault at its first not-Ready status from
 *    the onset up to the halt (its controller's next verify), null when it
 *    showed none;
 *  - a member's refusals are all its Ready reasons `DowngradeNotAllowed` /
 *    `DowngradeRequiresMigration` (each stretch once), so a member stamped
 *    twice is judged against its own refusal of each stamp;
 *  - the TARGETS of a FleetRollout are the versions X its Ready messages
 *    name ("rolling out version X", "have adopted version X"), in the order
 *    first named, after spec.targetVersion when pinned; with none named,
 *    the highest (semver) status.version any member reached (a rollback
 *    goes down, so it is never a target);
 *  - ADOPTION of a target: a member of a wave ADOPTED it at its first
 *    status.version equal to it, and was READY on it at its first Ready
 *    True at or after that while on it; the wave's progress points are,
 *    per target, its first adoption and every time the adopted or Ready
 *    count reaches a quarter, half, three quarters or all of the members
 *    (rounded up);
 *  - EXPOSURE is the harm done before detection: over the members of the
 *    blast radius (those on the bad version at some time at or before the
 *    halt), the member-time on the bad version from each one's adoption up
 *    to the halt (every stretch of status.version equal to it, cut at the
 *    halt); in member-ms.  It does not depend on when the run stops, and is
 *    0 exactly when the blast radius is;
 *  - EXPOSURE AFTER THE HALT is the time to remediation: over the blast
 *    members still on the bad version at the halt, from the halt to the
 *    member's status.version first changing away from it (a rollback or
 *    any other version, or the member deleted); such members are REMEDIATED,
 *    and those still on it at the end of the run UNREMEDIATED (counted, not
 *    summed: their exposure is not bounded by the run).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/wire/fleet_rc.h"

struct des;
struct ssrc;

/* A wave's adoption of one target version (see ADOPTION above). */
struct fo_adoption {
	const char *version;   /* borrowed from fo_fleet.targets */
	size_t adopted, ready; /* members that reached it / were Ready on it, counts */
	int64_t first_ms;      /* first member at it, -1 never */
	int64_t half_ms;       /* half the members (rounded up) at it, -1 never */
	int64_t all_ms;        /* every member at it, -1 never (or no members) */
	int64_t ready_half_ms, ready_all_ms; /* the same for Ready on it */
};

/* One point of a wave's adoption over time: the counts just after @t_ms. */
struct fo_progress {
	int64_t t_ms;
	const char *version;   /* borrowed from fo_fleet.targets */
	size_t adopted, ready; /* members at @version, and of those Ready, counts */
};

struct fo_wave {
	char *name;
	/*
	 * Adoption over time (see ADOPTION above).  members: the StageSets the
	 * wave's selector matches at the end of the run ("ns/name", sorted);
	 * a member in several waves is in each.
	 */
	char **members;
	size_t nmembers;
	struct fo_adoption *adoption; /* one per fo_fleet.targets, same order */
	struct fo_progress *progress; /* per target: first adoption and each quarter; time order */
	size_t nprogress;
	int64_t opened_ms;     /* -1 never */
	int64_t settled_ms;    /* first settled, -1 never */
	int64_t last_settled_ms; /* start of the settled stretch it passed on, -1 never */
	int64_t soak_until_ms; /* -1 never; may be before 0 only with a scripted status */
	unsigned soaks;        /* distinct soakUntil values written */
	int64_t passed_ms;     /* -1 never */
	/*
	 * A resumed run's wave: the same instants before the run's start, as
	 * the snapshot carried them (SCN_OBSERVER_STATE), ms <= 0, or FO_NEVER;
	 * the fields above count what this run saw (fo_first() joins them).
	 * soaks already counts the carried soaks.
	 */
	int64_t past_opened_ms, past_settled_ms, past_last_settled_ms, past_passed_ms;
	size_t passing, failing, unknown; /* gate verdicts, counts */
	struct frc_gate_rec *gates; /* copies; strings borrowed from the inputs */
	size_t ngates;
};

struct fo_halt {
	int64_t t_ms, last_ms;
	uint32_t passes;
	char *wave;
	bool gate;            /* kind: true "gate", false "regression" */
	char *reason;         /* "Halted" */
	char *message;
	char *version;        /* the bad version, NULL when none */
};

struct fo_stamp {
	int64_t t_ms;
	char *wave;
	char *member;         /* "ns/name" */
	char *to;             /* the rollback-to value */
	int64_t reverted_ms;  /* -1 never */
	int64_t refused_ms;   /* -1 never */
	char *refused_reason; /* NULL when not refused */
};

struct fo_blast_wave {
	char *name;
	size_t count, total;
};

struct fo_fleet {
	char *name;
	char **targets;        /* the versions adoption is measured against, in the order named */
	size_t ntargets;
	int64_t completed_ms;  /* first phase Completed, -1 never */
	struct fo_wave *waves;
	size_t nwaves;
	struct fo_halt *halts; /* in time order */
	size_t nhalts;
	/*
	 * The halts before the run's start that a snapshot carried (t_ms and
	 * last_ms < 0), in time order; a halting pass of the run that continues
	 * the last of them (the same wave and message, the FleetRollout loaded
	 * Halted) adds its passes to it instead of starting a halt in halts.
	 */
	struct fo_halt *past_halts;
	size_t npast_halts;
	/* first phase Completed before the run (a snapshot's state), FO_NEVER none */
	int64_t past_completed_ms;
	struct fo_stamp *stamps;
	size_t nstamps;
	/*
	 * Loaded in phase Halted (a snapshot of a halted fleet): its first halt
	 * predates the run, as sim/observe/outcome.h reports it, and who had
	 * taken the bad version by then is history the store does not keep, so
	 * the figures below are not given (has_blast false) rather than those
	 * of a later halting pass of the run.
	 */
	bool halted_before_start;
	/*
	 * The first halt was before the start and the snapshot carried its
	 * figures (those below, halt_ms < 0): the run that halted measured
	 * them.  Members still on the bad version at the snapshot are followed
	 * on in this run for the exposure after the halt.
	 */
	bool blast_carried;
	char **on_bad;         /* blast_carried: the blast members on the bad version at the snapshot */
	size_t non_bad;
	/* The first halt's figures; has_blast false when no halt, no bad version, or halted_before_start
	 * without blast_carried. */
	bool has_blast;
	char *bad_version;
	int64_t halt_ms;
	size_t blast_count, blast_total;
	char **blast_members;  /* "ns/name", sorted */
	struct fo_blast_wave *blast_waves;
	size_t nblast_waves;
	int64_t onset_ms;      /* -1 none */
	char *onset_member;    /* NULL none */
	bool onset_window;     /* the onset is a regression window (else a not-Ready status) */
	/*
	 * A resumed run's onset before its start: a not-Ready status the
	 * snapshot loaded is dated by its Ready condition's lastTransitionTime
	 * (onset_ms < 0); a regression window open before the start on a member
	 * loaded on the bad version is not (onset_undated: what the member ran
	 * when it opened is not in the snapshot; onset_ms is the window's start,
	 * detection_latency_ms -1).
	 */
	bool onset_undated;
	int64_t detection_latency_ms; /* -1 none */
	int64_t noticed_ms;    /* the onset member's first not-Ready status from the onset to the
				* halt (the controller noticing the fault), -1 none */
	int64_t exposure_member_ms;   /* before the halt, member-ms; -1 without a bad version */
	/*
	 * Blast members on the bad version when loaded (a snapshot's status):
	 * their exposure counts from the start, a lower bound, since how long
	 * they ran it before is not in the inputs.  0 for a carried halt.
	 */
	size_t exposure_loaded;
	int64_t exposure_after_halt_member_ms; /* halt to remediation, member-ms; -1 as above */
	size_t remediated, unremediated; /* blast members on it at the halt that left it / never did */
};

/* A fault window of one member's workload (sim/models/stageset_world's, or scripted in tests). */
struct fo_window {
	const char *member;   /* "ns/name" */
	int64_t start_ms;
	const char *version;  /* status.version at its start */
};

/* What fo_finish() joins with the observations; everything borrowed. */
struct fo_inputs {
	const struct frc_gate_rec *gates;
	size_t ngates;
	const struct frc_halt_rec *halts;
	size_t nhalts;
	const struct frc_stamp_rec *stamps;
	size_t nstamps;
	const struct fo_window *windows;
	size_t nwindows;
	int64_t end_ms;       /* end of the run, ms */
};

struct fo;
struct frc;
struct scenario;

/*
 * FO_NEVER - an instant before the run that did not happen (the past_*
 * fields; those of the run use -1, their times being >= 0).
 */
#define FO_NEVER INT64_MIN

/*
 * fo_first() - the earliest of an instant before the run (@past_ms, FO_NEVER
 * when none) and the same in the run (@run_ms, -1 when none): ms, < 0 before
 * the start, or FO_NEVER.
 */
int64_t fo_first(int64_t past_ms, int64_t run_ms);

/*
 * fo_last_settled() - the start of the settled stretch wave @w passed on
 * (fo_wave.last_settled_ms), before the run too: ms, or FO_NEVER.
 */
int64_t fo_last_settled(const struct fo_wave *w);

/*
 * fo_seed() - what a snapshot of the simulator carries of each FleetRollout's
 * history before it (@s->observer, SCN_OBSERVER_STATE's FleetRollout keys;
 * @s borrowed, values validated by the loader): the waves' first instants,
 * the halts and the first halt's figures, the completion.  Call after
 * loading the objects and before the run (the first deliveries read it).
 */
void fo_seed(struct fo *o, const struct scenario *s);

/*
 * fo_state() - what a snapshot taken now carries of FleetRollout @name for
 * the observer of a resumed run (SCN_OBSERVER_STATE's FleetRollout keys,
 * sim/load/scenario.h): the waves' first instants and soaks, the halts of
 * @f's pass log so far (and those this run was seeded with), the figures of
 * the first halt as fo_finish() would give them now (@c's fault windows;
 * @f, @c may be NULL), the completion.  Call during the run, before
 * fo_finish().  Returns new "KEY=VALUE ..." text (caller frees), or NULL
 * when there is nothing to carry.
 */
char *fo_state(const struct fo *o, const struct frc *f, const struct ssrc *c, const char *name);

/*
 * fo_new() - starts observing @w (installs FleetRollout and StageSet watches;
 * call before loading objects).
 * @latency_ms:    the world's API latency, subtracted from delivery times.
 * @start_unix_ms: wall-clock ms of simulated 0 (soakUntil is wall time).
 * Returns new; free with fo_free().  Cannot fail (aborts on OOM).
 */
struct fo *fo_new(struct des *w, int64_t latency_ms, int64_t start_unix_ms);

/* fo_free() - frees the observer and its results.  Accepts NULL. */
void fo_free(struct fo *o);

/*
 * fo_finish() - computes the per-fleet results from the observations and
 * @in (borrowed; the gate records' strings must outlive the observer).
 * Call once, after the run.
 */
void fo_finish(struct fo *o, const struct fo_inputs *in);

/*
 * fo_finish_run() - fo_finish() with the inputs of a run: @f's pass log and
 * the fault windows of @c's StageSet world (swst_member_faults(); either may
 * be NULL), ending at @end_ms; records @c's adoption attempts for
 * fo_member_attempts().
 */
void fo_finish_run(struct fo *o, const struct frc *f, const struct ssrc *c, int64_t end_ms);

/*
 * fo_member_wave() - the first FleetRollout (name order) and wave (status
 * order, as fo_fleets() lists them) whose selectors match StageSet @key
 * ("ns/name") at the end of the run.  Valid after fo_finish().
 * @fleet, @wave: receive indices into fo_fleets() and its waves.
 * @stamped_ms:   receives the first rollback-to stamp on it, ms, -1 none;
 *                may be NULL.
 * Returns: true and the outputs set; false when no fleet has it (or @o is NULL).
 * Cost: O(1) expected.
 */
bool fo_member_wave(const struct fo *o, const char *key, size_t *fleet, size_t *wave,
		    int64_t *stamped_ms);

/*
 * fo_member_recovered_at() - whether StageSet @key ("ns/name") went Ready
 * True at @t_ms (ms, as the status was written) right after being not
 * Ready for a reason other than AwaitingApproval: a recovery, e.g. from
 * StageFailed when a regression window ended.
 * Returns: false as well when the observer never saw it (or @o is NULL).
 * Cost: O(log changes of the member).
 */
bool fo_member_recovered_at(const struct fo *o, const char *key, int64_t t_ms);

/*
 * fo_member_version_at() - the status.version StageSet @key ("ns/name")
 * showed after its last status write at or before @t_ms (ms, as the status
 * was written).
 * Returns: borrowed (valid until fo_free()); NULL when it showed none then,
 * or the observer never saw it (or @o is NULL).
 * Cost: O(log version changes of the member).
 */
const char *fo_member_version_at(const struct fo *o, const char *key, int64_t t_ms);

/*
 * One adoption attempt of a StageSet as the member side ran it: from the
 * pass that started it to the write of its outcome (or its end when
 * superseded or abandoned; -1: still running when the run ended).  The
 * timeline shows only the end of an adoption; pictures of a run take the
 * start from here.
 */
struct fo_attempt {
	const char *version; /* the version adopted, borrowed from the run (valid while it lives) */
	int64_t start_ms;    /* ms, -1 when it never started */
	int64_t end_ms;      /* ms, -1 when it had not ended */
	bool directed;       /* by the stages.metio.wtf/rollback-to annotation */
};

/*
 * fo_member_attempts() - the adoption attempts of StageSet @key ("ns/name"),
 * in start order, as fo_finish_run() recorded them from the StageSet
 * controller (sim/wire/stageset_rc.h struct ssrc_attempt).
 * @n: receives their count (0 when none, or when no model was given).
 * Returns: borrowed (valid until fo_free()), or NULL when @n is 0.
 * Cost: O(1) expected.
 */
const struct fo_attempt *fo_member_attempts(const struct fo *o, const char *key, size_t *n);

/*
 * fo_member_ready_reason() - the reason of the last Ready condition StageSet
 * @key ("ns/name") showed, e.g. "DowngradeNotAllowed".
 * Returns: borrowed (valid until fo_free()); NULL when it showed none or
 * the observer never saw it (or @o is NULL).
 */
const char *fo_member_ready_reason(const struct fo *o, const char *key);

/* fo_fleets() - the FleetRollouts seen, in name order; borrowed.  Empty before fo_finish(). */
const struct fo_fleet *fo_fleets(const struct fo *o, size_t *n);

#endif
