#ifndef MAGOS_SIM_LINT_MAGOS_QUIRKS_H
#define MAGOS_SIM_LINT_MAGOS_QUIRKS_H

/*
 * The Magos Workspace surprises of spec magos-controllers.md §7 that a
 * manifest or a scripted event shows before anything runs:
 *   MS117  annotation magosproject.io/detected-revision present but empty
 *          (§7 #20): the Workspace resets after every apply, forever;
 *   MS118  spec.plan/apply.timeoutSeconds zero or negative (§7 #24, #23):
 *          the Job API refuses a negative deadline, a zero one fails the
 *          Job before it runs;
 *   MS119  a `patch` event that changes a Workspace's spec.autoApply
 *          (§7 #25): the spec hash includes it, so the Workspace plans
 *          again instead of applying a plan waiting for approval.
 * The run tells the same when it happens (sim/run/magos_quirks.h).
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_magos_quirks() - appends to @r the findings of MS117..MS119 over
 * the Workspaces of @s (the inputs' and those of `apply` events) and over
 * the `annotate` and `patch` events that write a Workspace's annotations or
 * spec.  @s borrowed; works on a partially loaded scenario.  Cannot fail.
 * Cost: O(objects + events) expected.
 */
void lint_magos_quirks(struct lint_report *r, const struct scenario *s);

#endif
