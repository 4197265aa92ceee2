#ifndef MAGOS_SIM_MAGOS_RC_H
#define MAGOS_SIM_MAGOS_RC_H

/*
 * The Magos Rollout and Project controllers wired into a simulated world:
 * controller-runtime set-up (For / Watches with the upstream map functions
 * and predicates, spec §2.1, §3.1, Appendix A) and reconcile adapters that
 * read the store (the informer cache), call the pure engine ports
 * (engine/magos_rollout.h, engine/magos_project.h) and apply their writes
 * through the store in upstream order:
 *
 *   rollout-controller  For(Rollout);
 *                       Watches(Workspace → every Rollout of the namespace
 *                       whose spec.projectRef equals the Workspace's
 *                       spec.projectRef.name; old and new object on update),
 *                       ResourceVersionChangedPredicate.
 *                       Writes: grant Updates, revoke Updates (each re-reads
 *                       the Workspace and PUTs it with its resourceVersion),
 *                       then the status PUT on /status (retried on conflict,
 *                       5 attempts, each re-reading).  No periodic requeue;
 *                       ReconcileError returns an error (back-off).
 *   project-controller  For(Project);
 *                       Watches(Workspace → Project spec.projectRef.name),
 *                       Watches(Rollout → Project of the Rollout's name),
 *                       both ResourceVersionChangedPredicate.
 *                       Writes: finalizer Update; status PUT (one attempt)
 *                       then grant Updates; on deletion status PUT then the
 *                       finalizer-removing Update.
 *
 * The controller names are the upstream leader-election ids
 * (`--leader-elect-id=<name>-controller` in charts/magos/templates/deployment.yaml).
 *
 * metav1.Time values written to status are RFC 3339 texts of the wall clock
 * (start_unix_ms + simulated ms) truncated to whole seconds.
 *
 * Both adapters keep the Workspace List between passes, brought up to date
 * from the store's change log (sim/cluster/apiserver.h api_changes_since),
 * and group it by (namespace, projectRef): a Rollout's pass runs on its
 * plan (engine/magos_rollout.h mr_plan: the levels, rebuilt when the
 * Rollout's uid or generation or its group's membership or labels change,
 * and per-level counts told of every other change), a Project's on its
 * group's tally (engine/magos_project.h mp_tally).  The decisions are those
 * of a pass over the whole List; a pass costs O(changes since the last one
 * + what it writes) instead of O(steps x Workspaces).
 *
 * Hazards the engines reproduce are also told as timeline warnings, once per
 * change of the Rollout's situation: a step that matches nothing
 * (NoWorkspacesFound freezes the whole Rollout), an invalid step selector
 * (ReconcileError, back-off retries), and overlapping steps (a Workspace in
 * the current level and another level flaps granted/revoked, spec §7 #1).
 */

#include <stdint.h>

#include "sim/world/controllers.h"
#include "sim/world/des.h"

#define MRC_ROLLOUT_CONTROLLER "rollout-controller"
#define MRC_PROJECT_CONTROLLER "project-controller"

struct mrc_params {
	int64_t start_unix_ms; /* wall-clock ms since the epoch of simulated time 0 */
};

struct mrc;

/*
 * mrc_register() - create both controllers in @w and register their watches.
 * Call before des_run(): objects already stored then reach the controllers
 * as ADDED events (their informers' initial lists).
 * @w: the world (borrowed; the controllers are owned by it).
 * @p: parameters (copied).
 * Returns: a new handle holding the adapters' state; free it with
 *          mrc_free() AFTER des_free(@w) (the controllers use it until then).
 * Errors:  cannot fail (aborts on OOM).
 */
struct mrc *mrc_register(struct des *w, const struct mrc_params *p);

/* mrc_free() - frees the adapters' state.  Accepts NULL. */
void mrc_free(struct mrc *m);

/* mrc_rollout_ctl() / mrc_project_ctl() - the controllers (borrowed, live as long as the world). */
struct ctl *mrc_rollout_ctl(const struct mrc *m);
struct ctl *mrc_project_ctl(const struct mrc *m);

#endif
