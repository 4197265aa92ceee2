#ifndef MAGOS_TESTS_FIXTURES_H
#define MAGOS_TESTS_FIXTURES_H

/*
 * Fixtures shared by the CUnit programs (tests/unit/test_*.c, each linked
 * with fixtures.o beside cu_main.o): builders of the objects the engines
 * read (Magos Workspaces, Rollouts and Projects).
 *
 * Compact notations of the Magos builders:
 *  - labels "env=dev,tier=web";
 *  - Workspace annotations "allowed" (execution-allowed: "true"),
 *    "allowed=yes" (any other value), "rev=<sha>" (detected-revision, may be
 *    empty), "req=<v>" (reconcile-request), other "k=v" as written, joined
 *    by ',';
 *  - step selectors: NULL (no selector key), "{}" (empty map), "env=dev"
 *    (matchLabels), or "expr:<key>:<op>:<v1|v2>" (one matchExpression; an
 *    empty value list is written "expr:k:In:" and no values key "expr:k:Exists").
 */

#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/value.h"

/* ---- Magos objects ------------------------------------------------------------- */

#define FX_API "magosproject.io/v1alpha1"

/*
 * fx_ws_ref() - a bare Workspace @ns/@name whose spec is only
 * {projectRef: {name: @project}}: no labels, annotations or status.
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_ws_ref(const char *ns, const char *name, const char *project);

/*
 * fx_workspace() - the Workspace of fx_ws_ref() with spec.autoApply true,
 * @labels and @ann in the notations above ("" or NULL for none), and
 * status {phase: @phase} (no status when @phase is NULL).
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_workspace(const char *ns, const char *name, const char *labels,
			 const char *project, const char *phase, const char *ann);

/*
 * fx_selector() - a label selector value from the step notation above.
 * Returns: new (val_free()), or NULL when @sel is NULL.
 * Errors:  @sel must follow the notation (a "k=v" without '=' or an "expr:"
 *          without its operator is a defect of the test; not checked).
 */
struct val *fx_selector(const char *sel);

/* One step of a Rollout built by fx_rollout(): its name and selector notation. */
struct fx_step {
	const char *name;
	const char *sel;
};

/*
 * fx_rollout() - a Rollout @ns/@project (named after its Project) with the
 * @nsteps @steps in order; with @status_phase, status {phase: @status_phase,
 * currentStep: @step}, else no status.
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_rollout(const char *ns, const char *project, const struct fx_step *steps,
		       size_t nsteps, const char *status_phase, int64_t step);

/*
 * fx_project() - a Project @ns/@name with an empty spec and the Magos
 * finalizer, unless @no_finalizer.
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_project(const char *ns, const char *name, int no_finalizer);

/*
 * fx_join() - the @n @names as "a,b,c".
 * Returns: new string ("" when @n is 0); free() it.  Cannot fail.
 */
char *fx_join(char *const *names, size_t n);

#endif
