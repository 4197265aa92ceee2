#ifndef MAGOS_REPORTS_REPORT_H
#define MAGOS_REPORTS_REPORT_H

/*
 * Renderers of one run: the terminal timeline and the JSON document.  They
 * read the timeline and the outcome only, write to a stream the caller owns
 * (the caller makes files atomic and checks the final flush), and never
 * change what they read.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/observe/fleetobs.h"
#include "sim/observe/observe.h"
#include "sim/observe/outcome.h"
#include "sim/core/timeline.h"

/* Runner capacity as the Job model saw it (all zero without Jobs). */
struct ssm;

struct rep_capacity {
	uint32_t capacity;    /* runner slots; 0 = unlimited */
	uint32_t peak;        /* most Jobs holding a slot at once */
	size_t jobs;          /* Jobs that got a slot */
	int64_t max_wait_ms;  /* longest wait for a slot */
	int64_t total_wait_ms;/* sum of the waits, for the mean */
	/*
	 * Jobs a snapshot caught running (mdl_job_stat.resumed): not in the
	 * figures above, since when their slot came is not in the snapshot.
	 */
	size_t resumed;
};

/* What a report says about the run besides the timeline. */
struct rep_run {
	const char *name;       /* scenario name */
	uint64_t seed;
	int64_t horizon_ms;     /* this run's own length */
	/*
	 * A run resumed from a snapshot the simulator wrote: the snapshot's time
	 * on the original run's clock, where spec.horizon also counts from (the
	 * header says "horizon 2h0m0s (1h0m0s left)"); 0 for any other run.
	 */
	int64_t resumed_ms;
	int64_t start_unix_ms;  /* wall-clock anchor of simulated time 0 */
	const char *clock_said; /* whence start_unix_ms when not spec.start (scn_clock_said()), or NULL */
	const char *const *files; /* inputs read, in order */
	size_t nfiles;
	size_t nobjects;        /* objects loaded at time 0 */
	size_t nevents;         /* scripted events */
	const char *stop;       /* "quiescent", "horizon", "budget", "loop" */
	int64_t end_ms;         /* simulated time the run ended at */
	uint64_t events;        /* simulation events run */
	const struct tl *tl;
	const struct oc_summary *summary;
	const struct obs *obs;  /* steps, halts, blast radius per Rollout; may be NULL */
	const struct fo *fleets; /* waves, gates, halts, blast radius per FleetRollout; may be NULL */
	/*
	 * true: the StageSets' adoptions are drawn from the attempts @fleets
	 * recorded (fo_member_attempts(): when each started; the timeline only
	 * shows when it ended); false: from the annotations on the timeline.
	 */
	bool member_attempts;
	struct rep_capacity capacity;
	/*
	 * The StageSet controller's workers (its concurrentReconciles, 4), 0
	 * when the run had no StageSet controller: at most this many adoption
	 * passes hold a worker at once (StageSet spec §5 Q-1).
	 */
	uint32_t stageset_workers;
};

/* Which timeline entries the terminal report shows. */
enum rep_timeline {
	/*
	 * What a reader follows (the default): objects appearing and going,
	 * every change of phase, reason or message, labels, spec and the
	 * annotations the engines act on (grants, requests, approvals,
	 * revisions); not Jobs and PVCs, finalizer bookkeeping, nor status
	 * writes that change no phase, reason or message.
	 */
	REP_TL_CHANGES,
	REP_TL_ALL,  /* every transition, with the detail of what changed */
	REP_TL_NONE, /* no timeline: steps view and summary only */
};

/* Options of the terminal report. */
struct rep_text_opts {
	bool color;     /* ANSI colours (callers pass true only for a TTY) */
	bool quiet;     /* summary only, no timeline and no steps view */
	unsigned width; /* columns to fit, >= 60; 80 by default */
	enum rep_timeline timeline;
};

/*
 * rep_text() - writes the run as a terminal timeline and a summary to @f,
 * every line at most @o->width columns (long fields are wrapped or
 * shortened with "…").
 * Returns: 0, or -1 when a write to @f failed (errno set).
 */
int rep_text(FILE *f, const struct rep_run *run, const struct rep_text_opts *o);

/*
 * rep_json() - writes the run as one JSON document (schema
 * "magos-sim/run/v1", documented in README.md, JSON Schema
 * docs/schemas/run-v1.schema.json) to @f.  Key order is fixed and
 * numbers are integers, so the same run gives the same bytes.
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_json(FILE *f, const struct rep_run *run);

/*
 * rep_events() - writes every transition of the run's timeline to @f as one
 * JSON object per line (JSON Lines, schema "magos-sim/event/v1", JSON Schema
 * docs/schemas/event-v1.schema.json), in timeline order, for jq and log
 * pipelines: time (UTC wall-clock time of the transition: spec.start plus
 * the simulated time, RFC 3339 with milliseconds), elapsed_ms and elapsed
 * (simulated time since the scenario start, ms and a Go duration), kind,
 * namespace, name, change, phase, reason, message, detail, cause,
 * resource_version, generation, the scenario's name and seed, and tool
 * ("magos-sim VERSION (commit HASH)").  Keys in that order, compact, so the
 * same run gives the same bytes.
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_events(FILE *f, const struct rep_run *run);

#endif
