#ifndef MAGOS_SIM_LINT_SS_DOWNGRADE_H
#define MAGOS_SIM_LINT_SS_DOWNGRADE_H

/*
 * A downgrade refused for a migration that never ran:
 *   MS274  a StageSet's inline migration ladder holds a migration with a
 *          `from` constraint and no down actions; an upgrade of the
 *          scenario crosses its `to` from a version `from` does not match,
 *          so it is skipped; a later downgrade (a publish of a lower
 *          version, a patch of spec.version.value, a rollback-to stamp)
 *          crosses that `to` again.  planDowngrade selects a downgrade's
 *          migrations by their `to` alone, not by what ran on the way up,
 *          so the downgrade is refused DowngradeRequiresMigration for a
 *          migration the StageSet never ran (fleetrollout-controller.md §6
 *          #17; StageSet spec §3.1 P-9).
 * The run tells the same when it happens (sim/run/ss_hazards_downgrade.h).
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_ss_downgrade() - appends to @r the findings of MS274 over the
 * StageSets of @s's inputs (borrowed), walking each one's versions as the
 * scenario offers them in time order (its spec.version.value, then publish
 * events whose selector matches its labels, patch events of
 * spec.version.value and annotate events of stages.metio.wtf/rollback-to on
 * it).  A sourced ladder (migrationsSourceRef) is not read, and approval
 * holds are taken as granted.  Works on a partially loaded scenario (a
 * StageSet whose spec does not parse is skipped: MS001 tells it).  Cannot
 * fail (aborts on OOM).  Cost: O(StageSets × (events log events + events ×
 * migrations)).
 */
void lint_ss_downgrade(struct lint_report *r, const struct scenario *s);

#endif
