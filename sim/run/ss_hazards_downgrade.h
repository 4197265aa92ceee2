#ifndef MAGOS_SIM_SS_HAZARDS_DOWNGRADE_H
#define MAGOS_SIM_SS_HAZARDS_DOWNGRADE_H

/*
 * Downgrades refused for a migration the StageSet never ran, told at the
 * end of a run as a timeline notice (a warning) per StageSet; what lint's
 * MS274 says of the inputs (sim/lint/lint_ss_downgrade.h) as it happened
 * (fleetrollout-controller.md §6 #17; StageSet spec §3.1 P-9):
 *
 *  - the first DowngradeRequiresMigration status of a StageSet, whose
 *    message names the downgrade and the migration it crosses, when the
 *    StageSet emitted no MigrationCompleted event of that migration in the
 *    run (status.executedMigrations is no record: every full success
 *    empties it): planDowngrade refused the downgrade for a step the
 *    StageSet never took.  Told with the times refused (the
 *    DowngradeRequiresMigration status writes) and the version
 *    status.version holds at the end.
 *
 * Figures come from the timeline (status writes and events) and the store
 * at the end of the run.  A StageSet that comes in with a status.version
 * (a snapshot's, a resumed run's) is not told: the migrations of its past
 * are not in the run.  Cost: one pass over the timeline per StageSet
 * refused.
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_downgrade() - adds the notices above to @r's timeline, dated
 * at the end of the run.  Call after the run ended (r->end_ms set).  @s:
 * the scenario run (its inputs say which StageSets came with a past).
 * Cannot fail (aborts on OOM).
 */
void ss_hazards_downgrade(struct run_result *r, const struct scenario *s);

#endif
