#ifndef MAGOS_REPORTS_TRACE_H
#define MAGOS_REPORTS_TRACE_H

/*
 * The Chrome trace of one run (`magos-sim run --trace FILE`): the trace
 * event "JSON Object Format" that Perfetto (ui.perfetto.dev) and
 * chrome://tracing open.  Timestamps are microseconds of simulated time
 * (ms x 1000) since scenario start.  There is no displayTimeUnit (older
 * trace processors read it as the unit of the timestamps).
 *
 * Layout (pid/tid numbering is stable for a given run):
 *  - one process per driver of reports/spans.h (pid = driver index + 1,
 *    process_name "Rollout ns/name", "FleetRollout name" or "(no rollout)",
 *    process_sort_index = pid), and one process "run" (pid = drivers + 1)
 *    holding the run-wide counters;
 *  - thread ids follow the display order and thread_sort_index equals the
 *    tid (viewers that ignore the sort index, older Perfetto, show the same
 *    order), and none is 0 (Perfetto merged tids 0 and 1 until 2025): tid 1
 *    is the first row of every process, then each step or wave followed by
 *    its targets, then the targets of no step or wave;
 *  - in each driver process: thread 1 "status" (the driver's status changes
 *    as thread-scoped instants "i", its halts as process-scoped instants);
 *    per step or wave a thread "step NAME" / "wave NAME" with one complete
 *    event ("X") from opened to passed (or to the
 *    halt / end of run when it never passed), a nested "soak" X for waves
 *    (settled to soak end, clamped inside the wave's event) and its gate
 *    evaluations as instants (args value, min, max, verdict, error); then
 *    one thread per target, named "ns/name", with one X per phase span
 *    (pending spans are left out: waiting is the gap), args label and
 *    open_end, and its rollback stamps as instants;
 *  - counters ("C", on tid 1 of their process): "running jobs" in the run
 *    process; per FleetRollout "adopting members" and "gate WAVE" (the
 *    metric value at each evaluation) in its process.  The series is named
 *    for what is counted and the event for the rest, {"name": "running",
 *    "args": {"jobs": N}}, {"name": "adopting", "args": {"members": N}},
 *    {"name": "gate WAVE", "args": {"metric": V}}, so that viewers, which
 *    call a track "NAME SERIES", show "running jobs", not "running jobs
 *    value".  A counter of more than
 *    REP_TRACE_MAX_POINTS points is drawn as its peak in each of
 *    REP_TRACE_BUCKETS equal intervals of the run (at the interval's start,
 *    only where it changes, then its final value);
 *  - a driver with more than REP_TRACE_MAX_GATES gate evaluations gets an
 *    instant only for evaluations whose verdict, value or error differ from
 *    the previous one of the same wave (a gate polled every 30 s for hours
 *    would otherwise bury everything else).
 *
 * Large runs: with more targets than opts->max_targets the per-target
 * threads are replaced by one counter per group, "NAME members", sampled
 * at REP_TRACE_BUCKETS evenly spaced times over the run (and emitted only
 * when the counts change), whose series are the number of the group's
 * targets in each phase category; targets of no group are counted under
 * "ungrouped members"; rollback stamps go to the group's thread then.
 * otherData.aggregated says which form the file has; otherData.tool names
 * magos-sim, its version and its commit.
 *
 * Every event is one line; key order is fixed and numbers are integers
 * (gate values have 10 significant digits), so a run gives the same bytes.
 */

#include <stddef.h>
#include <stdio.h>

#include "reports/report.h"
#include "reports/spans.h"

/* Targets drawn one thread each by default (CLI); past it, per-group counters. */
#define REP_TRACE_MAX_TARGETS 2000

/* Sample times of the aggregated per-group counters and of thinned counters. */
#define REP_TRACE_BUCKETS 400

/* Counters with more points are drawn as per-interval peaks. */
#define REP_TRACE_MAX_POINTS 2000

/* With more gate evaluations in a driver, only those that change something are drawn. */
#define REP_TRACE_MAX_GATES 2000

struct rep_trace_opts {
	size_t max_targets; /* per-target threads up to this many targets; 0: REP_TRACE_MAX_TARGETS */
};

/*
 * rep_trace() - writes the trace of @run (spans @sp, built from it by
 * sp_build()) to @f.
 * @o: options, or NULL for the defaults.
 * Returns: 0, or -1 when a write failed or jansson ran out of memory
 *          (errno set).
 */
int rep_trace(FILE *f, const struct rep_run *run, const struct sp_set *sp,
	      const struct rep_trace_opts *o);

#endif
