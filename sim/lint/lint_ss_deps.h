#ifndef MAGOS_SIM_LINT_SS_DEPS_H
#define MAGOS_SIM_LINT_SS_DEPS_H

/*
 * What a StageSet's dependsOn does to it when its dependency rolls out:
 *   MS272  a StageSet dependsOn one that a scenario publish reaches alone
 *          (the publish does not reach the dependent): the controller
 *          checks dependencies on every pass and a StageSet is not ready
 *          while it rolls a version out, so the deployed dependent turns
 *          Ready False DependencyNotReady and skips its drift correction
 *          until the dependency is Ready again (StageSet spec §5 Q-24).
 * The run tells the same when it happens (sim/run/ss_hazards_deps.h).
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_ss_deps() - appends to @r the findings of MS272 over the StageSets
 * of @s's inputs and the scenario's publish events (the first publish that
 * reaches the dependency and not the dependent, per dependsOn entry).  @s
 * borrowed; works on a partially loaded scenario.  Cannot fail (aborts on
 * OOM).  Cost: O(StageSets × dependsOn entries × (StageSets + publishes)).
 */
void lint_ss_deps(struct lint_report *r, const struct scenario *s);

/*
 * lint_ss_publish_reaches() - whether scenario event @p is a publish that
 * reaches StageSet @ss: its selector matches @ss's labels and, when it has
 * a namespaceSelector, the labels of @ss's Namespace among @s's inputs
 * (none there: it does not reach).  All borrowed.  Cannot fail.
 */
bool lint_ss_publish_reaches(const struct scenario *s, const struct scn_fevent *p, const struct obj *ss);

#endif
