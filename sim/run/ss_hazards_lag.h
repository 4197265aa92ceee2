#ifndef MAGOS_SIM_SS_HAZARDS_LAG_H
#define MAGOS_SIM_SS_HAZARDS_LAG_H

/*
 * A migration ladder that lagged its version, told at the end of a run as a
 * timeline notice (a warning) per StageSet and update; what lint's MS281
 * says of the inputs (sim/lint/lint_ss_lag.h) as it happened (StageSet spec
 * §5 Q-25, §2.1 W5):
 *
 *  - an adoption attempt of the StageSet controller adapter
 *    (sim/wire/stageset_rc.h) that succeeded, an upgrade from a deployed
 *    version, ended before an update of the StageSet's modelled
 *    migrationsSourceRef source (spec.models.sources[].updates) that brings
 *    a migration the upgrade selects and the ladder did not hold when the
 *    attempt started (lss_late_migration()); told when status.version at
 *    the end of the run lies at or above the migration's `to` and no
 *    MigrationStarted event of the StageSet names it: no pass ran it.
 *
 * Figures come from the adapter's attempts, the timeline (the StageSet's
 * Events), the store at the end of the run (the StageSet's spec and
 * status, whether the store holds the source) and the scenario's sources
 * model.
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_lag() - adds the notices above to @r's timeline, dated at the
 * end of the run.  Call after the run ended (r->end_ms set).  @s: the
 * scenario run.  Cannot fail (aborts on OOM).
 * Cost: O(StageSets × attempts × updates × ladder).
 */
void ss_hazards_lag(struct run_result *r, const struct scenario *s);

#endif
