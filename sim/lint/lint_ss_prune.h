#ifndef MAGOS_SIM_LINT_SS_PRUNE_H
#define MAGOS_SIM_LINT_SS_PRUNE_H

/*
 * Objects a render drops that no prune deletes:
 *   MS282  the scenario's sources model drops an object from a stage's
 *          render (spec.models.sources[].updates[].objects) of a StageSet
 *          whose stage, or a later stage that reads the same source, holds
 *          every new revision at its promotion gate (a soak or a manual
 *          promotion).  The pass that applies the new revision rewrites the
 *          stage's StageInventory without the object (recorder.Write, before
 *          the verify and the gate) and then holds there or at the later
 *          stage (stages run in order, each getting the new revision),
 *          so no prune runs; the prune of the later full success reads the
 *          shard as that pass left it, so the object stays in the cluster,
 *          listed by no StageInventory (StageSet spec R-20, §5 Q-28).
 * The run tells the same when it happens (sim/run/ss_hazards_stale.h).
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_ss_prune() - appends to @r the findings of MS282 over the StageSets
 * of @s (inputs and applied manifests, the first of each name): for each
 * stage with pruning on whose source is modelled (not in the inputs), and
 * that has a soak or manual promotion gate or is followed by a stage with
 * one that reads the same source (a stage of another source keeps the
 * revision it was promoted at, and passes), each update of that source
 * before the horizon and after the StageSet's creation that drops objects
 * from what the revision before rendered for the stage.  @s borrowed; works on a
 * partially loaded scenario (a spec that does not parse is MS001's).
 * Cannot fail (aborts on OOM).  Cost: O(StageSets × stages × updates ×
 * objects² + StageSets × stages²).
 */
void lint_ss_prune(struct lint_report *r, const struct scenario *s);

#endif
