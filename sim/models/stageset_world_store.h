#ifndef MAGOS_SIM_STAGESET_WORLD_STORE_H
#define MAGOS_SIM_STAGESET_WORLD_STORE_H

/*
 * The StageSet world's rollback store (see sim/models/stageset_world.h for
 * the model as a whole): the external store a controller configured with
 * one (spec.models.stagesets.rollbackStore) puts a stage's rendered objects
 * in after an apply and reads back on a rollback.  The store holds what was
 * put, by key, for the whole run (nothing expires it); its faults are the
 * scenario's windows.  Calls take no time.
 */

#include <stdbool.h>
#include <stdint.h>

#include "engine/stageset_env.h"
#include "sim/models/stageset_world.h"

/* swsr_configured() - whether the scenario configures the controller with a rollback store. */
bool swsr_configured(const struct sw_world *w);

/*
 * swsr_put() - RollbackStore.Put of the rendered objects under @key at
 * @t_ms (ms since scenario start): in a putErrors window -1 with @err
 * (class SSC_ERR, the store's message), nothing stored; else 0, and the key
 * holds the objects from now on, undecodable when @t_ms lies in a corrupt
 * window (a later Put of the key replaces them).
 */
int swsr_put(struct sw_world *w, const char *key, int64_t t_ms, struct ssc_err *err);

/*
 * swsr_get() - RollbackStore.Get of @key at @t_ms, then decodeObjects: in a
 * getErrors window SSC_STORE_ERROR with @err (the store's message); else
 * SSC_STORE_MISSING for a key never put, SSC_STORE_CORRUPT with
 * SCN_SW_CORRUPT_SNAPSHOT_ERROR in @err for one stored corrupt, else
 * SSC_STORE_FOUND.
 */
enum ssc_store_get swsr_get(struct sw_world *w, const char *key, int64_t t_ms, struct ssc_err *err);

#endif
