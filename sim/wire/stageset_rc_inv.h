#ifndef MAGOS_SIM_STAGESET_RC_INV_H
#define MAGOS_SIM_STAGESET_RC_INV_H

/*
 * The StageInventory shards of the StageSet controller adapter
 * (sim/wire/stageset_rc.h) and what they list: the objects a stage's last
 * apply rendered, the objects besides the workloads that live in the
 * cluster, and the survivors of StageSet spec §5 Q-28.  Private to
 * sim/wire/stageset_rc*.c.
 *
 * Upstream (metio/stageset-controller@f2c7604,
 * internal/controller/stageset_controller.go Reconcile and
 * internal/stageinv/stageinv.go Recorder.Write, ReconstructFromCluster)
 * a stage records the objects it applied as its shard, replacing the
 * shard's entries, before its verify and promotion gate; the prune that
 * deletes what left the render compares the shards read at the start of a
 * pass with this pass's renders, and runs only when every stage promoted
 * .  So an object dropped from a render in a pass that ends short of
 * that is no longer in any shard when the prune finally runs: it stays.
 *
 * A stage whose source names no objects (spec.models.sources[].objects)
 * renders its workload alone, with the member's entry ID: nothing here is
 * allocated or searched for it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/stageset_controller.h"
#include "sim/core/timeline.h"
#include "sim/load/scn_ssworld.h"
#include "sim/wire/stageset_rc_rec.h"

/*
 * ssri_add_shard() - a StageInventory shard of stage @stage (name) of @m
 * that the controller did not write this run: one a snapshot holds, or a
 * backup an `inventory` event restores.  It records @entries entries, with
 * the entry IDs @ids (@nids, copied; the workload's first), or, when @ids
 * is NULL, the workload's ID alone.  Nothing when @entries <= 0, when the
 * stage is not in @m's spec (a shard of a removed stage is one the
 * controller tears down, not one it is given) or when @m already has a
 * shard of that stage.
 */
void ssri_add_shard(struct ssrr_member *m, const char *stage, int64_t entries, char *const *ids, size_t nids);

/*
 * ssri_render() - records what the apply of stage @stage (name) of @m
 * rendered: the workload @workload_id and @objs (NULL: the workload alone),
 * as entry IDs "<group>_<Kind>_<ns>_<name>" in @m's namespace.  When
 * @written (the apply wrote its objects) the objects besides the workload
 * live in the cluster from then on.  Cost: nothing when @objs is NULL and
 * no apply of @m rendered named objects before.
 */
void ssri_render(struct ssrr_member *m, const char *stage, const char *workload_id,
		 const struct scn_sw_stage_objects *objs, bool written);

/*
 * ssri_rendered() - the entry IDs stage @stage (index into @m's spec) last
 * rendered, into *@ids (borrowed from @m until its next apply of that
 * stage); the member's workload ID alone when it names no objects.
 * Returns their count (0 for an index out of range).
 */
size_t ssri_rendered(const struct ssrr_member *m, size_t stage, const char *const **ids);

/*
 * ssri_deleted() - Applier.Delete of @ids (@n) at @now_ms (ms since the
 * scenario's start): the objects no longer live; a survivor among them is
 * marked deleted.
 */
void ssri_deleted(struct ssrr_member *m, const char *const *ids, size_t n, int64_t now_ms);

/*
 * ssri_write() - recorder.Write of stage @stage (name, spec position @pos)
 * by the pass that ended at @now_ms with @exit: the shard's entries become
 * what the stage rendered in it; a missing shard is created, folding in the
 * still-live objects of the stage whose kinds the render has
 * (ReconstructFromCluster: what a lost shard is rebuilt from).  An object
 * the shard listed, the render dropped and the pass left live (it ended
 * short of a full success, so no prune ran) becomes a survivor, unless the
 * stage has prune: false (it never deletes what it drops); a survivor
 * rendered again is in the shard again and no longer one.
 * Returns: whether the shard was created or changed (a write that wakes the
 * StageSet); false when it already said the same.
 */
bool ssri_write(struct ssrr_member *m, const char *stage, int pos, enum ssc_exit exit, int64_t now_ms);

/*
 * ssri_tell() - puts on @tl, at @now_ms with @cause, the objects besides
 * workloads that the pass ending now deleted ("deleted") and created
 * ("created", with the stage), as the store's changes of those objects
 * would show; forgets them.  Nothing when the pass touched none.
 */
void ssri_tell(struct ssrr_member *m, struct tl *tl, int64_t now_ms, const char *cause);

/*
 * ssri_rows() - appends to *@rows (*@n of them) a row of SSRC_OBJECT_COLS
 * cells (sim/wire/stageset_rc.h ssrc_object_rows()) for each object of @m
 * besides its workloads that lives in the cluster, in the order applied.
 */
void ssri_rows(const struct ssrr_member *m, char ****rows, size_t *n);

/*
 * ssri_restore() - a resumed run's: what the uninterrupted run's @m had
 * when the snapshot was taken (SCN_INVENTORY_ANNOTATION): stage @stage's
 * last render @ids (@n, copied), when @live false, or objects besides
 * workloads it applied that live in the cluster, when @live true (appended
 * in the order given, told as created by no pass).
 */
void ssri_restore(struct ssrr_member *m, const char *stage, char *const *ids, size_t n, bool live);

/*
 * ssri_restore_survivor() - a resumed run's: the §5 Q-28 survivor @id of
 * stage @stage that the uninterrupted run's @m had, dropped by a pass
 * ending at @dropped_ms with @reason (static, ssc_exit_name()) and deleted
 * at @deleted_ms (SSRC_STILL_LIVE: it lives), both ms since the resumed run's start
 * (negative: before it).
 */
void ssri_restore_survivor(struct ssrr_member *m, const char *stage, const char *id, int64_t dropped_ms,
			   const char *reason, int64_t deleted_ms);

/*
 * ssri_text() - appends to *@text (NULL or owned; replaced) the items of
 * SCN_INVENTORY_ANNOTATION besides the shards: "render:<stage>=<ids>" for
 * each render of @m that names objects, "live:<stage>=<ids>" for each run
 * of its live objects applied by one stage, in order, and
 * "survivor:<stage>=<id>;<dropped>;<reason>[;<deleted>]" for each survivor,
 * its times RFC 3339 with milliseconds, @start_unix_ms (ms since the epoch)
 * the run's start; each after "," when *@text is not empty.  Nothing for a
 * member that named none.
 */
void ssri_text(const struct ssrr_member *m, int64_t start_unix_ms, char **text);

/* ssri_inv_clear() - frees what shard @rec owns. */
void ssri_inv_clear(struct ssrr_inv *rec);

/* ssri_member_release() - frees @m's renders, live objects and survivors. */
void ssri_member_release(struct ssrr_member *m);

#endif
