#ifndef MAGOS_SIM_LINT_SS_LAG_H
#define MAGOS_SIM_LINT_SS_LAG_H

/*
 * A migration ladder that lags its version:
 *   MS281  a StageSet reads its ladder from spec.migrationsSourceRef, and
 *          the scenario's sources model gives that source, in an update of
 *          its own (spec.models.sources[].updates), a migration that an
 *          upgrade published to the StageSet earlier crosses: a pass that
 *          plans the upgrade before the update reads the ladder without it
 *          and adopts the version, and as the controller runs only
 *          migrations whose `to` lies above status.version, no later pass
 *          runs it.  The migrations source is not watched, so the update
 *          wakes no StageSet either (StageSet spec §5 Q-25, §2.1 W5).
 * The run tells the same when it happens (sim/run/ss_hazards_lag.h).
 */

#include <stdint.h>

#include "engine/stageset_types.h"
#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lss_source_key() - the modelled source a source reference @ref of a
 * StageSet in namespace @ns names, as the world model keys it: kind
 * (ExternalArtifact for an empty kind or a producer's), namespace, name
 * (all borrowed from @ref or @ns).  Cannot fail.
 */
void lss_source_key(const struct sst_source_ref *ref, const char *ns, const char **kind, const char **rns,
		    const char **name);

/*
 * lss_in_inputs() - whether the inputs of @s hold the source @kind
 * @ns/@name (then it is read as it is, not modelled).  Cost: O(objects).
 */
bool lss_in_inputs(const struct scenario *s, const char *kind, const char *ns, const char *name);

/*
 * lss_migrations_source() - the modelled source @sp's migrationsSourceRef
 * names for a StageSet in namespace @ns, as the world model keys it: kind
 * (ExternalArtifact for an empty kind or a producer's), namespace, name
 * (all borrowed from @sp or @ns).  Returns false when @sp has no
 * migrationsSourceRef.  Cannot fail.
 */
bool lss_migrations_source(const struct sst_spec *sp, const char *ns, const char **kind,
			   const char **rns, const char **name);

/*
 * lss_late_migration() - the first migration (in run order) that update
 * @k of @u (the sources model entry scn_sw_source_updates() gives @sp's
 * migrations source of a StageSet in @ns) brings to an upgrade @from →
 * @to: one that the upgrade selects from the update's ladder (under
 * migrationsSourceRef.path) and that the ladder the source held at
 * @read_ms (scn_sw_source_files_at()) does not name.
 * @to_out: receives that migration's `to` (new; caller frees).
 * Returns: its name (new; caller frees), or NULL: none, or a ladder or
 *          version that does not parse (the controller tells those).
 * Cost: O(files + migrations²).
 */
char *lss_late_migration(const struct scenario *s, const struct sst_spec *sp, const char *ns,
			 const struct scn_sw_source *u, size_t k, int64_t read_ms, const char *from,
			 const char *to, char **to_out);

/*
 * lint_ss_lag() - appends to @r the findings of MS281 over the StageSets of
 * @s (inputs and applied manifests, the first of each name) with an inline
 * spec.version.value that the scenario's publishes edit, without
 * requireMigrationCoverage (a major upgrade without a covering migration
 * holds and retries then), whose migrations source the sources model
 * updates.  @s borrowed; works on a partially loaded scenario (a spec that
 * does not parse is MS001's).  Cannot fail (aborts on OOM).
 * Cost: O(StageSets × publishes² × updates × ladder).
 */
void lint_ss_lag(struct lint_report *r, const struct scenario *s);

#endif
