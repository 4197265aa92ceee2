#ifndef MAGOS_SIM_FLEET_GLUE_H
#define MAGOS_SIM_FLEET_GLUE_H

/*
 * The fleet side of a run: turns a loaded scenario's fleet settings
 * (spec.metrics, spec.fleet, spec.models.stagesets, publish/regress events)
 * into the parameters of the FleetRollout controller (sim/wire/fleet_rc) and the
 * StageSet member model (sim/models/stageset_model), and starts both in a world.
 */

#include "sim/world/des.h"
#include "sim/load/scenario.h"

struct fleet_glue;

/*
 * fleet_glue_start() - registers the FleetRollout controller and starts the
 * member model in @w for scenario @s (borrowed; must outlive the glue).
 * Call after the world's objects are loaded, before des_run().  Gates read
 * the scenario's series (sim/load/promseries) at their evaluation time; the
 * allowlist and address checks come first, so nothing is ever contacted.
 * Returns new; free with fleet_glue_free() after des_free(@w).
 */
struct fleet_glue *fleet_glue_start(struct des *w, const struct scenario *s, uint64_t trial);

struct frc;
struct ssm;

/* fleet_glue_frc() - the FleetRollout controller's state (its pass log); borrowed, NULL for NULL. */
const struct frc *fleet_glue_frc(const struct fleet_glue *g);

/* fleet_glue_ssm() - the member model (its member stats); borrowed, NULL for NULL. */
const struct ssm *fleet_glue_ssm(const struct fleet_glue *g);

/* fleet_glue_free() - frees the controller and model state.  Accepts NULL. */
void fleet_glue_free(struct fleet_glue *g);

#endif
