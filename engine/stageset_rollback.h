#ifndef MAGOS_ENGINE_STAGESET_ROLLBACK_H
#define MAGOS_ENGINE_STAGESET_ROLLBACK_H

/*
 * Rollback to the last good run, as the StageSet controller decides it
 * (metio/stageset-controller@f2c7604 internal/controller/rollback.go,
 * analysis.go rollbackStageToSnapshot): the snapshot a successful pass
 * records (status.lastAppliedSnapshot), the whole-StageSet rollback after a
 * failed run (attemptRollback), and the single-stage revert of a promotion
 * gate with onFailure: Rollback; the optional rollback store (storeRendered
 * after an apply, the store read first on a restore).  The re-fetch,
 * re-render, image gate, re-apply and inventory write of one stage are the
 * world's (env->restore_stage), the store's contents and faults too
 * (env->rollback_store); this module walks the snapshot, skips what the spec
 * no longer has, orders the store before the producer, and words the
 * outcome.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/stageset_env.h"
#include "engine/stageset_types.h"

/* Ready reasons of a terminal rollback (conditions.go). */
#define RB_REASON_PREVIOUS_REVISION_UNAVAILABLE "PreviousRevisionUnavailable"
#define RB_REASON_IMAGE_UNVERIFIED "ImageUnverified"

/* The Warning event reason of a rollback-store put/get/decode problem (rollback.go). */
#define RB_REASON_STORE_FAILED "RollbackStoreFailed"

/*
 * rb_key() - rollbackKey / rollbackstore.Key: "<ns>/<name>/<stage>/<digest>"
 * with every ':' of @digest replaced by '-' (an "algo:hex" digest becomes one
 * path segment and object name).
 * Returns: a new string; caller frees.  Cannot fail (aborts on OOM).
 * Source: metio/stageset-controller@f2c7604 internal/rollbackstore/key.go Key,
 *         internal/controller/rollback.go rollbackKey.
 */
char *rb_key(const char *ns, const char *name, const char *stage, const char *digest);

/*
 * rb_store_rendered() - storeRendered: Put of stage @stage's rendered objects
 * (applied from artifact @digest) under rb_key(); a
 * failure is an event, never a stage failure (the apply succeeded, and a
 * rollback can still re-fetch): Warning RollbackStoreFailed `storing stage
 * "<s>" in the rollback store failed: <err>` at @at_ms on @ev.  The caller
 * calls it only with a store configured and spec.rollbackOnFailure set.
 * @store: the store (borrowed, not NULL).
 * Cannot fail (aborts on OOM).
 * Source: metio/stageset-controller@f2c7604 internal/controller/rollback.go storeRendered.
 * Deviations: encodeObjects cannot fail here (the objects are the world's), so
 *   its "encoding stage ... failed" event does not arise.
 */
void rb_store_rendered(const struct ssc_rollback_store *store, struct ssc_events *ev, int64_t at_ms,
		       const char *ns, const char *name, const char *stage, const char *digest);

/*
 * rb_snapshot_stages() - snapshotStages: replaces @st's lastAppliedSnapshot
 * by one entry per spec stage in spec order: {stage, url, digest, revision}
 * of @resolved[i] and @sub_digests[i] (NULL or "" for none).
 * @resolved:    @spec->nstages artifacts, aligned with spec.stages.
 * @sub_digests: @spec->nstages strings, or NULL for all "".
 * Cannot fail (aborts on OOM).
 * Source: metio/stageset-controller@f2c7604 internal/controller/rollback.go snapshotStages.
 */
void rb_snapshot_stages(const struct sst_spec *spec, const struct ssc_resolved *resolved,
			const char *const *sub_digests, struct sst_status *st);

/* How a rollback ended. */
enum rb_result {
	RB_RESTORED = 0,  /* restored, or nothing to restore (reason "") */
	RB_TERMINAL,      /* reason and msg set: Ready False <reason> <msg>, no requeue */
	RB_TRANSIENT,     /* err set: back off and retry */
};

/*
 * rb_attempt_rollback() - attemptRollback: for each lastAppliedSnapshot
 * entry in snapshot order whose stage is still in @spec, rollbackStageObjects
 * then env->restore_stage at the stage's spec index.  With a rollback store
 * (env->rollback_store) the store is read first, under rb_key(@ns, @name,
 * stage, digest): found ⇒ restore from the store's copy (no re-fetch); a Get
 * error ⇒ Warning RollbackStoreFailed `reading stage "<s>" from the rollback
 * store failed: <err>` and RB_TRANSIENT with `rollback store get stage
 * "<s>": <err>`, the producer not asked; corrupt ⇒ Warning
 * RollbackStoreFailed `decoding stage "<s>" from the rollback store failed
 * (corrupt snapshot); falling back to producer re-fetch: <err>` and the
 * re-fetch; a miss ⇒ the re-fetch.  Events go to @ev at the pass clock.
 * @ns, @name: the StageSet's namespace and name (the store key).
 * @snap:   the status whose lastAppliedSnapshot is restored (borrowed).
 * @reason, @msg: set for RB_TERMINAL (sizes @reasonlen, @msglen), "" otherwise.
 * @err:    set for RB_TRANSIENT.
 * @restored: receives, in snapshot order, the spec index of each stage
 *          restored, whose StageInventory upstream then rewrites to the
 *          restored object set (recorder.Write); room for
 *          snap->nlast_applied_snapshot entries; *@nrestored their count
 *          (also on RB_TERMINAL and RB_TRANSIENT: the stages restored before).
 * Returns: RB_RESTORED, RB_TERMINAL (the world's reason and message; a failed
 *          re-apply worded "cannot roll back stage \"<s>\": re-applying the
 *          previous revision failed (<err>)" with PreviousRevisionUnavailable)
 *          or RB_TRANSIENT.
 * Source: metio/stageset-controller@f2c7604 internal/controller/rollback.go attemptRollback,
 *         rollbackStageObjects.
 * Deviations: 1. the decryptor is built inside the world's first restore (its
 *   failure comes back as that stage's terminal or transient answer); an
 *   empty snapshot never asks the world, as upstream.
 */
enum rb_result rb_attempt_rollback(const struct ssc_env *env, struct ssc_clock *clk,
				   struct ssc_events *ev, const char *ns, const char *name,
				   const struct sst_spec *spec, const struct sst_status *snap,
				   char *reason, size_t reasonlen, char *msg, size_t msglen,
				   struct ssc_err *err, size_t *restored, size_t *nrestored);

/*
 * rb_rollback_stage_to_snapshot() - rollbackStageToSnapshot's decision for
 * stage @stage_name at spec index @position; its rollbackStageObjects reads
 * the rollback store first as rb_attempt_rollback() does (events to @ev,
 * a Get error is the transient -1).
 * @revision: set to the snapshot's revision when reverted (size @revlen).
 * @ok:       whether the stage was reverted.
 * @why:      when not reverted and not transient: "no last-good revision is
 *            available to roll back to (enable spec.rollbackOnFailure)" when
 *            the snapshot has no entry for the stage, else the world's
 *            terminal message (size @whylen).
 * Returns: 0; or -1 with @err for a transient failure (including a failed
 *          re-apply, which upstream returns as an error here).
 * Source: metio/stageset-controller@f2c7604 internal/controller/analysis.go rollbackStageToSnapshot.
 */
int rb_rollback_stage_to_snapshot(const struct ssc_env *env, struct ssc_clock *clk,
				  struct ssc_events *ev, const char *ns, const char *name,
				  const struct sst_status *snap, const char *stage_name,
				  size_t position, char *revision, size_t revlen, bool *ok,
				  char *why, size_t whylen, struct ssc_err *err);

#endif
