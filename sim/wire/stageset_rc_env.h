#ifndef MAGOS_SIM_STAGESET_RC_ENV_H
#define MAGOS_SIM_STAGESET_RC_ENV_H

/*
 * What a pass of the StageSet controller asks outside the controller
 * (struct ssc_env, struct ssc_cluster), answered from the store and the
 * StageSet world.  A pass's context (struct ssre_pass) is on the
 * reconcile's stack, so nothing a pass asks outlives it but the world's own
 * objects.  Private to sim/wire/stageset_rc*.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/stageset_controller.h"
#include "sim/wire/stageset_rc_rec.h"

/* One pass's context: what the callbacks of ssre_bind() answer from. */
struct ssre_pass {
	struct ssrc *r;
	struct ssrr_member *m;
	const struct obj *ss;
	struct sw_member sm;
	int64_t deletion_ms;   /* a deletion due during the pass (sim ms), -1 none */
	/* the pass's last kstatus wait: stage index (SIZE_MAX: none yet), start (sim ms), length (ms) */
	size_t wait_stage;
	int64_t wait_at_ms, wait_ms;
	struct ssc_rollback_store store; /* env->rollback_store when the scenario configures one */
};

/* ssre_inv_find() - @m's StageInventory shard of stage @stage, or NULL. */
const struct ssrr_inv *ssre_inv_find(const struct ssrr_member *m, const char *stage);

/*
 * ssre_bind() - points @env and @cl at the adapter's callbacks, all with
 * context @pc (which must outlive the pass); env->rollback_store at
 * @pc->store when the scenario configures a rollback store.  Every other
 * field is zeroed.
 */
void ssre_bind(struct ssre_pass *pc, struct ssc_env *env, struct ssc_cluster *cl);

#endif
