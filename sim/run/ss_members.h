#ifndef MAGOS_SIM_RUN_SS_MEMBERS_H
#define MAGOS_SIM_RUN_SS_MEMBERS_H

/*
 * The StageSets a run's StageSet controller reconciled or saw, found by
 * name: the end-of-run StageSet observers keep one record per member, in
 * the members' order, and follow the timeline's StageSet entries into them.
 */

#include <stdbool.h>
#include <stddef.h>

#include "sim/base/strindex.h"
#include "sim/core/timeline.h"
#include "sim/run/run.h"
#include "sim/wire/stageset_rc.h"

/*
 * ssm_index() - the members of @r's StageSet controller (ssrc_members()),
 * indexed by "ns/name".
 * @r:   a finished run; a run without StageSets has no members.
 * @ms:  receives the borrowed member array (valid while @r's world lives).
 * @idx: an empty index (zeroed); receives "ns/name" → position in *@ms.
 *       The caller releases it with si_release().
 * Returns: the member count (0: *@ms and @idx are left as they were).
 * Errors:  cannot fail (aborts on out-of-memory).
 */
size_t ssm_index(const struct run_result *r, const struct ssrc_member_stat **ms, struct strindex *idx);

/*
 * ssm_find() - the position of member @ns/@name (NULL as "": a timeline
 * entry's fields) in @idx, built by ssm_index().
 * Returns: true and *@k, or false when no member has that name.  Kinds are
 *          not looked at: the caller keeps to StageSets.
 * Errors:  cannot fail.  Cost: O(1) expected; allocates only for a key
 *          over 255 bytes.
 */
bool ssm_find(const struct strindex *idx, const char *ns, const char *name, size_t *k);

/* A set of timeline changes for ssm_next(): SSM_CHANGE(TL_STATUS) | SSM_CHANGE(TL_EVENT). */
#define SSM_CHANGE(c) (1u << (c))

/*
 * ssm_next() - the next entry of @tl, from position *@i on, about a member:
 * kind "StageSet", a name ssm_find() finds in @idx, a change in @changes.
 * @i: the position to look from; set past the entry returned.
 * @e: receives the entry (strings borrowed from @tl).
 * @k: receives the member's position.
 * Returns: true, or false when no entry from *@i on qualifies.
 * Errors:  cannot fail.  Cost: O(1) expected per entry passed over.
 */
bool ssm_next(const struct tl *tl, size_t *i, unsigned changes, const struct strindex *idx,
	      struct tl_entry *e, size_t *k);

#endif
