#ifndef MAGOS_SIM_LINT_MAGOS_JOBS_H
#define MAGOS_SIM_LINT_MAGOS_JOBS_H

/*
 * Scripted events that name a Job no one creates:
 *   MS126  a `status`, `patch`, `annotate`, `label` or `delete` event of
 *          kind Job names a Job that is neither in the inputs, nor applied
 *          by an earlier event, nor one the Workspace controller will
 *          create: `<workspace>-plan-<hash>` and `<workspace>-apply-<hash>`,
 *          the hash being the Workspace spec's (WC getSpecHash, the port's
 *          mw_get_spec_hash()).  At run time the event does not apply
 *          (NotFound); the finding names the nearest Job name that will
 *          exist.
 * A Workspace whose spec a `patch` event changes gets another hash after
 * it: its Jobs' names are not checked then (any hash is taken).
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_magos_jobs() - appends to @r a finding of MS126 for each event of
 * @s (borrowed) that names a Job no input, earlier `apply` event or
 * Workspace (of the inputs or of `apply` events, in the Job's namespace)
 * will provide.  Works on a partially loaded scenario.  Cannot fail.
 * Cost: O(objects + events × Workspaces of the namespace) expected.
 */
void lint_magos_jobs(struct lint_report *r, const struct scenario *s);

#endif
