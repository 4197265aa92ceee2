#ifndef MAGOS_SIM_STAGESET_RC_WATCH_H
#define MAGOS_SIM_STAGESET_RC_WATCH_H

/*
 * What the StageSet controller adapter (sim/wire/stageset_rc.h) watches and
 * tells the world: the world's view of a member (labels, sources), publishes
 * to inline versions, the modelled sources' timers (one pending wake-up each
 * at their next change), the store watches and their map functions, and
 * the adoption attempts.  Private to sim/wire/stageset_rc*.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/wire/stageset_rc_rec.h"

/* ssrw_ns_labels() - the labels of Namespace @ns in the store, or NULL when it holds none. */
const struct obj_strmap *ssrw_ns_labels(const struct ssrc *r, const char *ns);

/*
 * ssrw_fill_sw_member() - @sm as the world names member @m read as object @o
 * (Namespace labels left NULL).  Every pointer borrowed from @m and @o.
 */
void ssrw_fill_sw_member(const struct ssrc *r, const struct ssrr_member *m, const struct obj *o,
			   struct sw_member *sm);

/* Tells the world about @o (labels, Namespace labels, sources) when something it keeps changed. */
void ssrw_world_see(struct ssrc *r, struct ssrr_member *m, const struct obj *o, int64_t t_ms,
		      bool spec_changed);

/*
 * ssrw_on_publish() - the DES callback of publish event @arg (an index into
 * the fevents, as a pointer): every StageSet with an inline version the
 * publish reaches gets it written (a spec update).
 */
void ssrw_on_publish(struct des *w, void *ctx, void *arg);

/* ssrw_direct_kind() - whether @kind is a Flux source (GitRepository, OCIRepository, Bucket). */
bool ssrw_direct_kind(const char *kind);

/* Arms the wake-ups of the modelled sources @m's stages name. */
void ssrw_arm_sources(struct ssrc *r, struct ssrr_member *m);

/* W5: an ExternalArtifact event. */
void ssrw_map_external_artifact(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out);

/* W6: a GitRepository, OCIRepository or Bucket event. */
void ssrw_map_producer(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out);

/* W3: the dependents of @o in its namespace. */
void ssrw_map_dependents(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out);

/* W4: a StageLedger wakes the StageSet of the same name. */
void ssrw_map_same_name(void *ctx, struct des *w, const struct obj *o, struct ctl_keys *out);

/* W1's update predicate. */
bool ssrw_pred_stageset(void *ctx, enum api_event_type type, const struct obj *old,
			  const struct obj *new);

/*
 * The adapter's own StageSet watch (registered before the controller's, so
 * the indexes are current when the map functions run): the spec cache and
 * the indexes, the world's sightings, publishes to a StageSet first seen
 * late, and the end of a deleted StageSet.
 */
void ssrw_on_stageset(void *ctx, enum api_event_type type, const struct obj *old,
			const struct obj *new);

/* A Namespace's labels are part of what a publish matches: tell the world about its StageSets. */
void ssrw_on_namespace(void *ctx, enum api_event_type type, const struct obj *old,
			 const struct obj *new);

/* What one pass did to @m's attempts, at its end @end_ms. */
void ssrw_track_attempt(struct ssrr_member *m, const struct ssrr_pass *pe, int64_t end_ms);

#endif
