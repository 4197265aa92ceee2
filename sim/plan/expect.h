#ifndef MAGOS_PLAN_EXPECT_H
#define MAGOS_PLAN_EXPECT_H

/*
 * Expectations: the `spec.expect` of a Scenario, parsed with file:line:col
 * errors, evaluated after the run(s) against the statistics of the trials
 * (sim/plan/stats.h) and, for object-state assertions, against the cluster of
 * trial 0 (the seeded run) read through sim/run/run.h probes.
 *
 * Also the plain data `magos-sim check` hands to its writers (reports/junit.h,
 * reports/ghsummary.h): one exp_result per check (a lint finding or an
 * expectation) and one exp_scenario_report per input.
 *
 * Units: times are ms, counts are counts, shares and probabilities are
 * ratios 0..1 (written as 0.05 or 5% in the file).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/plan/stats.h"
#include "sim/plan/trials.h"
#include "sim/base/diag.h"
#include "sim/lint/lint.h"
#include "sim/run/run.h"
#include "sim/load/scenario.h"
#include "sim/world/des.h"

/* Most trials `expect.trials` may ask for. */
#define EXP_MAX_TRIALS 100000

enum exp_kind {
	EXP_COMPLETES,      /* completes: true|false */
	EXP_TTC,            /* timeToComplete, ms */
	EXP_HALT_PROB,      /* haltProbability, ratio */
	EXP_COMPLETE_PROB,  /* completionProbability, ratio */
	EXP_BLAST,          /* blastRadius, count or share */
	EXP_HALTS_BEFORE,   /* haltsBefore: {step|wave: name} */
	EXP_DETECTION,      /* detectionLatency, ms */
	EXP_EXPOSURE,       /* exposure, target-ms */
	EXP_PEAK_JOBS,      /* peakJobs, count */
	EXP_ASSERT,         /* assert[i]: some object matches */
	EXP_ERROR,          /* error[i]: no object matches */
};

/*
 * Which figure of a distribution a limit applies to.  EXP_EVERY: a bound
 * written straight under the metric (`blastRadius: {max: 1}`) holds for
 * every trial — max is compared with the largest value, min with the
 * smallest.
 */
enum exp_stat { EXP_EVERY, EXP_P50, EXP_P90, EXP_P95, EXP_P99, EXP_MEAN, EXP_MAX, EXP_MIN };

enum exp_unit { EXP_U_MS, EXP_U_COUNT, EXP_U_RATIO };

/* One parsed expectation.  Fields not used by its kind are zero/NULL. */
struct exp_item {
	enum exp_kind kind;
	char *name;           /* owned: "timeToComplete.p95", "blastRadius", "assert[0]" */
	enum exp_stat stat;
	enum exp_unit unit;
	bool has_min, has_max;
	double min, max;      /* in @unit; 0 <= min, max; ratios <= 1 */
	bool want;            /* EXP_COMPLETES */
	char *phase;          /* EXP_HALTS_BEFORE: the step or wave name (owned) */
	bool wave;            /* EXP_HALTS_BEFORE: @phase is a wave, else a step */
	bool has_at;          /* EXP_ASSERT/EXP_ERROR: false = at the end of the run */
	int64_t at_ms;        /* ms since the start of the Scenario's clock (a resumed run's: the original run's, exp_set.resumed_ms) */
	struct val *object;   /* EXP_ASSERT/EXP_ERROR: the partial manifest (owned) */
	struct val_mark mark; /* where the expectation's key sits */
};

/* A lint rule the scenario shows on purpose (spec.expect.findings). */
struct exp_finding {
	const struct lint_rule *rule; /* borrowed, static */
	struct val_mark mark;         /* the list element */
};

/* The parsed spec.expect of one scenario. */
struct exp_set {
	const char *file;        /* borrowed from the scenario's files */
	uint32_t trials;         /* expect.trials, default 1 */
	/*
	 * scenario.resumed_ms when parsed: the original-clock ms of the run's 0.
	 * Items' at_ms are on the original clock (as the Scenario's events are);
	 * the probes and messages move them (0 when the run is not resumed).
	 */
	int64_t resumed_ms;
	/*
	 * Where timeToComplete counts from, which its result says.  A run
	 * resumed from a snapshot of the simulator (@resumed): from the original
	 * run's start (@origin_unix_ms), the start the whole rollout had, as
	 * the uninterrupted run counts it and as `at` reads.  A run whose
	 * Rollouts or FleetRollouts were loaded with a status (a kubectl
	 * export, @from_snapshot): from this run's start (@start_unix_ms, the
	 * snapshot), what is left: neither status records when the rollout in
	 * flight began, and creationTimestamp is the object's, which outlives
	 * its rollouts.  Otherwise from the scenario's start, said by nothing.
	 */
	bool resumed, from_snapshot;
	int64_t origin_unix_ms, start_unix_ms;
	/*
	 * @resumed: the latest first completion of a Rollout or FleetRollout
	 * before the snapshot, as it carries them (SCN_OBSERVER_STATE's
	 * completed), ms on the original clock; -1 when none.  The whole
	 * rollout's time of a run whose drivers were all complete when loaded.
	 */
	int64_t done_before_ms;
	struct exp_finding *findings; /* owned: expect.findings, rules expected to fire */
	size_t nfindings;
	struct exp_item *items;  /* owned, in file order of their marks */
	size_t n;
};

/* exp_set_init() - an empty set (trials 1).  exp_set_release() frees it; accepts NULL. */
void exp_set_init(struct exp_set *e);
void exp_set_release(struct exp_set *e);

/*
 * exp_parse() - parses @s->expect (NULL: an empty set) into @out, checking
 * step and wave names against the Rollouts and FleetRollouts of @s (its
 * objects and apply events), and notes where @s's clock puts the start of
 * timeToComplete (exp_set.resumed, from_snapshot).
 * @out: filled in (exp_set_init() first is not needed); release with
 *       exp_set_release() whatever the return.
 * @d:   every problem is appended as an error at its file:line:col, with a
 *       note where it helps (the accepted metric names, the known steps).
 * Returns: 0, or -1 when an error was found (@out holds the good items).
 */
int exp_parse(const struct scenario *s, struct exp_set *out, struct diag *d);

/*
 * exp_lint_variants() - lints every variant of @s (spec.variants, each
 * applied with var_apply()) and appends to @r what is the variant's own:
 * lint_merge_variant() (messages start `variant "NAME": `); drops the
 * "no FleetRollout gate reads this series" warnings of @r for series a
 * variant's gate reads (lint_drop_read_series()).  Expectations are not
 * touched: `check` evaluates them on the base.
 * @d: the errors of spec.variants itself (var_parse()) and of applying a
 *     variant (a patch that makes a manifest invalid), which make the input
 *     invalid; each once, naming its variant once.  A variant with errors is
 *     not linted.
 * Returns: 0, or -1 when a variant has errors (the good ones are linted).
 */
int exp_lint_variants(struct lint_report *r, const struct scenario *s, struct diag *d);

/* exp_metric_names() - the accepted keys of `expect`, comma-separated (static). */
const char *exp_metric_names(void);

/*
 * exp_subset() - Chainsaw-style subset match: @partial holds in @actual
 * when maps match key by key (every key of @partial present in @actual
 * and matching; extra keys of @actual ignored), lists have the same length
 * and match element by element, and scalars are equal (an int and a
 * float holding the same number are equal).  Both borrowed; NULL @actual
 * matches nothing but a null @partial.
 */
bool exp_subset(const struct val *partial, const struct val *actual);

/*
 * exp_obj_val() - @o as the manifest a user would read back (apiVersion,
 * kind, metadata with name, namespace, labels, annotations, finalizers,
 * generation, resourceVersion; spec, status and the other top-level
 * fields).  Returns new (val_free()).
 */
struct val *exp_obj_val(const struct obj *o);

/*
 * exp_object_matches() - whether @o has the identity @partial names
 * (apiVersion, kind, metadata.name, metadata.namespace where given) and
 * every field of @partial (exp_subset()).
 */
bool exp_object_matches(const struct val *partial, const struct obj *o);

/* The verdicts of the object-state expectations of one run (trial 0). */
struct exp_objcheck {
	bool done;        /* evaluated */
	bool pass;
	int64_t at_ms;    /* when it was evaluated, ms on the run's clock */
	bool at_end;      /* evaluated on the final state (no `at`, or nothing was left to happen by then) */
	bool unreached;   /* not evaluated: the run ended (end_ms, why: stop) before its `at` */
	bool before_start; /* not evaluated: its `at` is before a resumed run's start (the snapshot) */
	int64_t end_ms;   /* with unreached: when the run ended, ms */
	enum des_stop stop; /* with unreached: why it ended then */
	size_t nmatched;  /* objects matching the partial manifest */
	size_t nkind;     /* objects of the kind (and namespace/name) looked at */
	char mismatch[512]; /* the first difference of the first such object, "" when none */
};

struct exp_probes {
	const struct exp_set *e;     /* borrowed */
	int64_t *times;              /* owned: probe times, ms, one per timed item */
	size_t *item;                /* owned: the item index of each probe */
	size_t n;
	struct exp_objcheck *checks; /* owned: one per item of @e (unused for non-object kinds) */
};

/*
 * exp_probes_init() - prepares the probes of @e (borrowed; must outlive @p).
 * exp_probes_attach() points @o's probe fields at them (@o must not have
 * probes already).  After run_scenario(), exp_probes_finish() evaluates the
 * object expectations that did not run on the final @world (the run ended at
 * @end_ms, ms, for the reason @stop): those without `at`, and those whose
 * `at` came after a run that stopped with nothing left to happen
 * (DES_QUIESCENT: the cluster was the same at `at`).  One whose `at` the run
 * never reached otherwise (the change completed and the run ended there, the
 * horizon, a bound) is marked unreached: a state from before its time is not
 * the state at its time, and exp_evaluate() fails it saying so.  On a
 * resumed run (exp_set.resumed_ms) an `at` is the original run's instant:
 * the probe runs at at_ms - resumed_ms; one before the resumed start
 * (the snapshot) cannot be evaluated from the snapshot and is marked
 * before_start, which exp_evaluate() fails saying so.
 * exp_probes_release() frees what @p owns; accepts NULL.
 */
void exp_probes_init(struct exp_probes *p, const struct exp_set *e);
void exp_probes_attach(struct exp_probes *p, struct run_opts *o);
void exp_probes_finish(struct exp_probes *p, struct des *world, int64_t end_ms,
		       enum des_stop stop);
void exp_probes_release(struct exp_probes *p);

/* ---------------------------------------------------------------- results */

enum exp_outcome {
	EXP_PASSED,
	EXP_FAILED,  /* an expectation failed, an error lint finding, a run stopped by a bound */
	EXP_WARNED,  /* a warning lint finding: reported, does not fail the check */
	EXP_NOTED,   /* an info lint finding */
	EXP_SKIPPED, /* an expectation never evaluated (the input is invalid) */
};

/* One check: a lint finding or an expectation, as every writer shows it. */
struct exp_result {
	char *id;              /* owned: rule id "MS201" or expectation name "timeToComplete.p95" */
	enum exp_outcome outcome;
	char *measured;        /* owned: "7h12m0s", "2 of 40 trials (5%)"; NULL for lint */
	char *limit;           /* owned: "<= 6h0m0s"; NULL for lint */
	char *message;         /* owned: one line, says what was measured against what */
	char *file;            /* owned; NULL when no file applies */
	struct val_mark mark;  /* 1-based; {0,0} unknown */
	bool input_error;      /* EXP_FAILED because the input itself is invalid (the loader's
				  or expect's diagnostics), not a finding or a measurement */
};

/* Key figures of one scenario's trials (for the summary). */
struct exp_figures {
	bool have;              /* trials ran */
	size_t ntrials;
	int64_t horizon_ms;
	double ttc_p50, ttc_p95; /* ms */
	/* where they count from when not the scenario's start (exp_set.resumed, from_snapshot),
	 * words for a figure ("counted from the snapshot"); static, NULL otherwise */
	const char *ttc_from;
	bool ttc_p50_censored, ttc_p95_censored;
	size_t completed;       /* trials that completed */
	size_t halted;          /* trials that halted */
	double blast_max;       /* count, largest over trials */
	double blast_share_max; /* ratio 0..1, largest over trials */
};

/* Everything `check` learned about one input. */
struct exp_scenario_report {
	char *input;              /* owned: the path as given */
	char *name;               /* owned: scenario name, or NULL when it did not load */
	bool invalid;             /* the input could not be loaded (exit 3) */
	struct exp_result *items; /* owned */
	size_t n, cap;
	size_t nfailed, nwarned;  /* nfailed includes the input errors */
	size_t nerrors;           /* results with input_error */
	size_t nskipped;          /* EXP_SKIPPED results */
	struct exp_figures fig;
	int64_t start_unix_ms;    /* spec.start (the loader's default when it did not load) */
};

/* exp_report_init() - an empty report for @input.  exp_report_release() accepts NULL. */
void exp_report_init(struct exp_scenario_report *r, const char *input);
void exp_report_release(struct exp_scenario_report *r);

/*
 * exp_report_add() - appends a result (strings copied, NULL allowed for
 * @measured, @limit and @file) and counts it.  Returns the new item (borrowed
 * until the next add).
 */
struct exp_result *exp_report_add(struct exp_scenario_report *r, const char *id,
				  enum exp_outcome outcome, const char *measured,
				  const char *limit, const char *message, const char *file,
				  struct val_mark mark);

/*
 * exp_report_add_lint() - one result per finding of @l (errors fail, warnings
 * warn, infos note); the message is the finding and its fix.  A finding of a
 * rule @e lists in expect.findings (@e may be NULL) passes instead, and a
 * listed rule with no finding fails at its list element.  When @r->invalid
 * is set, the loader's refusals (MS001, MS002) are marked input_error.
 */
void exp_report_add_lint(struct exp_scenario_report *r, const struct lint_report *l,
			 const struct exp_set *e);

/*
 * exp_report_mark_input_error() - marks @x (a failed result of @r) as an
 * error in the input itself (JUnit <error>) and counts it.
 */
void exp_report_mark_input_error(struct exp_scenario_report *r, struct exp_result *x);

/*
 * exp_report_add_skipped() - one EXP_SKIPPED result per item of @e (borrowed),
 * in item order, its message "not evaluated: " and @why (e.g. "the input is
 * invalid").  For an input whose expectations cannot run.
 */
void exp_report_add_skipped(struct exp_scenario_report *r, const struct exp_set *e,
			    const char *why);

/*
 * exp_evaluate() - evaluates every item of @e and appends one result each
 * to @out, in item order; first, when @st->nbound > 0, one failed result
 * "bounds" (a run stopped by the loop or budget bound).  Also fills
 * @out->fig from @st.
 * @st:    statistics of the trials (borrowed).
 * @rows:  the @nrows trial rows (borrowed; haltsBefore reads their phases).
 * @p:     probes of trial 0 after exp_probes_finish(), or NULL (object
 *         expectations then fail with "not evaluated").
 */
void exp_evaluate(const struct exp_set *e, const struct plan_stats *st,
		  const struct trial_row *rows, size_t nrows, const struct exp_probes *p,
		  struct exp_scenario_report *out);

#endif
