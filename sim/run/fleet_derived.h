#ifndef MAGOS_SIM_RUN_FLEET_DERIVED_H
#define MAGOS_SIM_RUN_FLEET_DERIVED_H

/*
 * The FleetRollouts that the end-of-run fleet observers follow
 * (fleet_adoption.h, fleet_view_ready.h) and their members, read from the
 * store at the end of the run: a fleet without spec.targetVersion (derived:
 * it adopts what its members run) and without spec.namespaceSelector (left
 * out, as lint leaves them); a member is a StageSet the fleet's selector
 * matches, in the first wave whose selector matches it (none: not a member).
 */

#include <stdbool.h>
#include <stddef.h>

#include "sim/base/keytab.h"
#include "sim/cluster/apiserver.h"

/* The FleetRollouts and StageSets (group stages.metio.wtf) of the store. */
struct fd_list {
	struct api_list frs; /* FleetRollouts, (namespace, name) order */
	struct api_list sss; /* StageSets, likewise; empty when there is no FleetRollout */
};

/*
 * fd_list_init() - lists them from @a into @l.  Pointers borrowed from @a,
 * valid until its next write.  Release with fd_list_release().  Cannot
 * fail (aborts on OOM).
 */
void fd_list_init(struct fd_list *l, struct api *a);

/* fd_list_release() - frees the lists of @l (not the objects).  Accepts NULL. */
void fd_list_release(struct fd_list *l);

/* fd_followed() - whether FleetRollout @fr has neither targetVersion nor namespaceSelector. */
bool fd_followed(const struct obj *fr);

/*
 * fd_members() - the members of FleetRollout @fr among @sss into @m (a
 * keytab of the caller's records, by "ns/name"), in @sss's order: each
 * record is added zeroed, then filled by @init from its StageSet @ss and the
 * index (into spec.waves) and name of its first wave.  A fleet whose
 * selector does not parse has no members.  Cannot fail (aborts on OOM).
 */
void fd_members(const struct obj *fr, const struct api_list *sss, struct keytab *m,
		void (*init)(void *rec, const struct obj *ss, size_t wave, const char *wave_name));

#endif
