#ifndef MAGOS_SIM_MAGOS_WC_H
#define MAGOS_SIM_MAGOS_WC_H

/*
 * Wiring of the Magos Workspace controller (engine/magos_workspace) and the
 * RefWatcher (engine/magos_refwatcher) into a simulated world.
 *
 * Workspace controller "workspace-controller": For(Workspace); Owns(Job) and
 * Owns(PersistentVolumeClaim) through the controller ownerReference the
 * controller sets on both (every event of an owned object wakes the owner);
 * Watches(Secret) with ResourceVersionChangedPredicate mapping a repository
 * credential Secret to the Workspaces of its namespace with that repoURL; the
 * schedule requeue.  A reconcile reads the store (playing the informer cache),
 * calls mw_reconcile() and applies its actions in order: Update for the
 * finalizer and the reset's permission removal, merge patches for annotation
 * consumption, status updates, Job and PVC creation, Job deletion.  The
 * garbage collector that deletes a deleted Workspace's Jobs and PVC by their
 * ownerReferences is the models' (sim/models/models.h).
 *
 * RefWatcher "refwatcher": For(Workspace) keeps the registry; poll timers are
 * des_at() events at DES_PRIO_SCRIPT; the first poll of a new entry is at a
 * jitter uniform in [0, interval) drawn from rng_stream(seed, trial,
 * "refwatcher/<ns>/<name>"); remotes are resolved with the models' git
 * resolver; a new SHA is merge-patched as magosproject.io/detected-revision.
 *
 * Deviations (also in engine/PROVENANCE.md): a Workspace whose reconcile
 * interval is <= 0 hangs the real controller's only worker; here an error
 * notice names it and only that Workspace stops being reconciled.  Run IDs
 * take their 32 random bits from rng_stream(seed, trial,
 * "workspace/<ns>/<name>/run-id").  Durations below 1 ms but above 0 count as
 * 1 ms (the clock is in ms).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/world/controllers.h"
#include "sim/world/des.h"

struct mdl;

/*
 * The models' git remote resolver (sim/models/models.h mdl_git_resolve): fills
 * @sha_out (41 bytes) with the SHA @ref of @repo_url points to at @now_ms.
 * Returns 0, or -1 when unresolvable (treated as an ls-remote error).
 */
typedef int (*mwc_git_resolve_fn)(const struct mdl *m, const char *repo_url, const char *ref,
				  int64_t now_ms, char *sha_out);

struct mwc_params {
	int64_t anchor_unix_ms;          /* wall-clock ms of simulated time 0 (scenario start) */
	uint64_t trial;                  /* Monte Carlo trial for the RNG streams (0: single run) */
	const struct mdl *models;        /* borrowed, passed to git_resolve; may be NULL */
	mwc_git_resolve_fn git_resolve;  /* NULL: every (repo, ref) resolves to a fixed SHA derived from the strings */
	int64_t default_poll_interval_ms; /* --default-poll-interval; <= 0: 30 s */
	bool no_refwatcher;              /* true: register the Workspace controller only */
};

struct mwc;

/*
 * mwc_register() - register both controllers in @w.
 * @p: parameters (copied); NULL for defaults (anchor 0, trial 0, no models).
 * Returns: a new context; free with mwc_free() after the last des_run() on @w
 *          (the controllers and timers refer to it; des_free() may come before
 *          or after).  Cannot fail.
 */
struct mwc *mwc_register(struct des *w, const struct mwc_params *p);

/* mwc_free() - frees the context and the RefWatcher registry.  Accepts NULL. */
void mwc_free(struct mwc *m);

/* mwc_workspace_ctl() / mwc_refwatcher_ctl() - the controllers (borrowed; refwatcher NULL when disabled). */
struct ctl *mwc_workspace_ctl(const struct mwc *m);
struct ctl *mwc_refwatcher_ctl(const struct mwc *m);

/*
 * mwc_is_hung() - true when @ns/@name is no longer reconciled: once any
 * Workspace hits the interval <= 0 hang, the real controller's only worker
 * loops forever, so from then on this is true of every Workspace.
 */
bool mwc_is_hung(const struct mwc *m, const char *ns, const char *name);

/*
 * mwc_restore_entry() - registers @ns/@name in the RefWatcher as a snapshot
 * of the simulator says it was (SCN_REFWATCHER_STATE_FORMAT,
 * sim/load/scenario.h; the RefWatcher's ctl_state() writes it): @url, @ref, @interval_ms (> 0) and @last_sha
 * ("" when not seeded), with no push; mwc_restore_poll() adds them.  Call
 * after mwc_register() and before des_run().  Strings copied.
 */
void mwc_restore_entry(struct mwc *m, const char *ns, const char *name, const char *url,
		       const char *ref, int64_t interval_ms, const char *last_sha);

/*
 * mwc_restore_poll() - a push of @ns/@name's entry (mwc_restore_entry()) due
 * at @at_ms (simulated ms, >= 0).  Pushes due at one instant pop in the order
 * they are restored.  No-op for a key not registered.
 */
void mwc_restore_poll(struct mwc *m, const char *ns, const char *name, int64_t at_ms);

/* Poll counters (refwatcher_poll_total by result), for reports and tests. */
struct mwc_poll_stats {
	uint64_t error, unchanged, seeded, changed;
};

/* mwc_poll_stats() - totals so far. */
struct mwc_poll_stats mwc_poll_stats(const struct mwc *m);

/*
 * mwc_default_sha() - the SHA the default resolver gives (@repo_url, @ref):
 * 40 lowercase hex digits into @out (41 bytes).  Deterministic.
 */
void mwc_default_sha(const char *repo_url, const char *ref, char out[41]);

#endif
