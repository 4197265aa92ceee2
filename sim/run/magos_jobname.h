#ifndef MAGOS_SIM_RUN_MAGOS_JOBNAME_H
#define MAGOS_SIM_RUN_MAGOS_JOBNAME_H

/*
 * The Workspace a Magos Job belongs to, read back from the Job's name: the
 * Workspace controller names its Jobs "<workspace>-plan-<8 hex>" and
 * "<workspace>-apply-<8 hex>" (mw_job_name(), the hash mw_get_spec_hash()),
 * and the end-of-run observers follow Jobs on the timeline by that name.
 */

#include <stdbool.h>
#include <stddef.h>

/*
 * mjn_workspace() - the Workspace name of Job @job into @out.
 * @job:  a Job name, NUL-terminated.
 * @type: "plan" or "apply" to accept only that kind of Job, NULL for either.
 * @out:  receives the Workspace name, NUL-terminated (@len bytes).
 * Returns: true and @out filled when @job is "<ws>-<type>-<8 lowercase hex>"
 *          with a non-empty <ws> shorter than @len; false otherwise (@out
 *          untouched).
 * Errors:  cannot fail.
 */
bool mjn_workspace(const char *job, const char *type, char *out, size_t len);

#endif
