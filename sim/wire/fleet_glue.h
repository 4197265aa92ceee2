#ifndef MAGOS_SIM_FLEET_GLUE_H
#define MAGOS_SIM_FLEET_GLUE_H

/*
 * The fleet side of a run: turns a loaded scenario's fleet settings
 * (spec.metrics, spec.fleet, spec.models.stagesets and sources,
 * publish/regress events) into the parameters of the FleetRollout
 * controller (sim/wire/fleet_rc), the StageSet world
 * (sim/models/stageset_world) and the StageSet controller
 * (sim/wire/stageset_rc), and starts them in a world: the FleetRollout
 * controller always, the StageSet controller and its world when the inputs
 * have StageSets (loaded, or created by an apply event).
 */

#include "sim/world/des.h"
#include "sim/load/scenario.h"

struct fleet_glue;

/*
 * fleet_glue_start() - registers the controllers in @w for scenario @s
 * (borrowed; must outlive the glue), trial @trial.  Call after the world's
 * objects are loaded, before des_run().  Gates and metric sources read the
 * scenario's series (sim/load/promseries) at their evaluation time; the
 * allowlist and address checks come first, so nothing is ever contacted.
 * @keep_pass_starts: the run looks at its world mid-run (snapshots):
 * ssrc_params.keep_pass_starts.
 * Returns new; free with fleet_glue_free() after des_free(@w).
 */
struct fleet_glue *fleet_glue_start(struct des *w, const struct scenario *s, uint64_t trial,
				    bool keep_pass_starts);

struct frc;
struct ssrc;

/* fleet_glue_frc() - the FleetRollout controller's state (its pass log); borrowed, NULL for NULL. */
const struct frc *fleet_glue_frc(const struct fleet_glue *g);

/* fleet_glue_ssrc() - the StageSet controller's state; borrowed, NULL without StageSets (or for NULL). */
const struct ssrc *fleet_glue_ssrc(const struct fleet_glue *g);

/* fleet_glue_free() - frees the controllers' and the world's state.  Accepts NULL. */
void fleet_glue_free(struct fleet_glue *g);

#endif
