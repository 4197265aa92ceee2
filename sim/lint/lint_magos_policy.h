#ifndef MAGOS_SIM_LINT_MAGOS_POLICY_H
#define MAGOS_SIM_LINT_MAGOS_POLICY_H

/*
 * The plan-time policy validation of a Workspace as the manifests set it,
 * against what its field docs promise (spec magos-controllers.md §7 #21):
 *   MS120  the policySelector that applies to a Workspace (its own, or its
 *          Project's it falls back to) is the empty selector {}: documented
 *          as "every ValidatingPolicy", the controller turns it into "" and
 *          validates nothing;
 *   MS121  a Workspace sets spec.validation without a policySelector
 *          (validation: {}), documented to override its Project's default,
 *          while the Project has a policySelector: the controller falls back
 *          to the Project's, so the Project's policies are checked.
 * The run tells the same from its plan Jobs (sim/run/magos_policy.h).
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_magos_policy() - appends to @r the findings of MS120 and MS121 over
 * the Workspaces of @s (the inputs', and those of `apply` events, which
 * replace an input of the same name) and the Projects they name (likewise).
 * @s borrowed; works on a partially loaded scenario.  Cannot fail (aborts on
 * OOM).  Cost: O(objects + events) expected.
 */
void lint_magos_policy(struct lint_report *r, const struct scenario *s);

#endif
