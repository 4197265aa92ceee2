#ifndef MAGOS_SIM_LINT_SS_SOURCES_H
#define MAGOS_SIM_LINT_SS_SOURCES_H

/*
 * What a StageSet does when a gate's metric source cannot answer:
 *   MS270  a stage's promotion analysis has onFailure Rollback, the default
 *          onSourceError (Hold) and failureLimit 0, on a StageSet that keeps
 *          a last-good snapshot (rollbackOnFailure): one evaluation its
 *          source cannot answer counts as a failure, so a metric outage at a
 *          pass that gates a new revision reverts the stage, and the stage
 *          then stays parked on that revision (StageSet spec §3.2 S-13,
 *          S-14, G-6, G-7, S-1; §5 Q-16).
 * The run tells the same when it happens (sim/run/ss_hazards_sources.h).
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_ss_sources() - appends to @r the findings of MS270 over the
 * StageSets of @s (the inputs' and those of `apply` events), naming the
 * scenario's `unavailable` windows of a check's series within the horizon
 * when there are any.  @s borrowed; works on a partially loaded scenario.
 * Cannot fail (aborts on OOM).  Cost: O(StageSets × checks × series).
 */
void lint_ss_sources(struct lint_report *r, const struct scenario *s);

#endif
